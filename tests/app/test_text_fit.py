"""The "is any text cut?" checker itself (text_fit.cut_text), on small apps
made to cut or not: a checker that cannot see a cut passes every screen."""

from __future__ import annotations

from text_fit import cut_text, region_lines
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import DataTable, Label, OptionList, Static


class Row(App[None]):
    """A name as wide as its words, and words beside it in a box of 16 cells."""

    CSS = """
    Horizontal { height: 1; }
    #said { width: 16; height: 1; }
    """

    def __init__(self, name: str, said: str) -> None:
        super().__init__()
        self.who, self.said = name, said

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Label(self.who, id="name")
            yield Static(self.said, id="said")


async def test_words_after_wide_characters_are_read_where_they_are() -> None:
    """Read by characters, the words beside "王小明" were read three cells
    to the right of where they are: "plays the seven", whole on screen, was
    reported as "ys" and "plays" drawn but not seen, and the name as "pla".
    A checker that cries wolf at every wide name is one nobody runs on them."""
    app = Row("王小明 ", "plays the seven")
    async with app.run_test(size=(40, 3)) as pilot:
        await pilot.pause()
        assert cut_text(app) == []
        said = app.query_one("#said").region
        assert region_lines(app, said) == ["plays the seven "]


class Seats(App[None]):
    CSS = "OptionList { width: 16; height: 6; }"

    def __init__(self, *prompts: str) -> None:
        super().__init__()
        self.prompts = prompts

    def compose(self) -> ComposeResult:
        yield OptionList(*self.prompts, markup=False)


async def test_an_option_folded_inside_a_word_is_a_cut() -> None:
    """An option list's rows were never read: a name wider than the list,
    folded at its edge ("Konstantin" over "ova"), passed."""
    app = Seats("1. Ann", "2. Wilhelmina Konstantinova")
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        problems = cut_text(app)
        assert any("Konstantin" in p for p in problems), problems


async def test_whole_options_are_no_cut() -> None:
    app = Seats("1. Ann  ● here", "2. 王小明  (host)", "3. Zoë 👍")
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        assert cut_text(app) == []


class Box(App[None]):
    CSS = "Static { width: 12; height: 3; }"

    def compose(self) -> ComposeResult:
        yield Static("Wilhelmina Konstantinova")


async def test_a_word_folded_by_the_wrapping_is_a_cut() -> None:
    """A name wider than its box is folded by Textual's wrapping
    ("Konstantinov" over "a"), and both halves were among the words drawn,
    so the checker passed it: the words on screen are now held to the
    whole words of the text."""
    app = Box()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        problems = cut_text(app)
        assert any("Konstantino" in p for p in problems), problems


class Games(App[None]):
    """A table of games in a box of ``width`` cells."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def compose(self) -> ComposeResult:
        yield DataTable(id="games")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.styles.width = self.width
        table.add_columns("When", "Result", "Where")
        table.add_rows([("03-08", "won", "joined"), ("03-07", "stalemate", "here")])


async def test_a_table_cell_cut_at_the_tables_edge_is_a_cut() -> None:
    """A DataTable draws by lines, and the checker read none of them: the
    last games at 60x18 showed "Wher" and "join" at the table's edge, and
    passed."""
    app = Games(23)  # "Where" (its column 8 wide) starts at 18: 5 cells of it show
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        problems = cut_text(app)
        assert any("'Wher'" in p for p in problems), problems
        assert any("'join'" in p for p in problems), problems


async def test_whole_table_cells_are_no_cut() -> None:
    app = Games(40)
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        assert cut_text(app) == []
