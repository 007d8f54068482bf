"""Network addresses as people type them, checked without touching the network.

The command line checks ``HOST[:PORT]``, ``--bind`` and ``--announce`` here
before any screen opens, and the join screen says where it is joining from
the same parsing.  Nothing here looks a name up: ``--bind`` and
``--announce`` take IP literals only (a typo must not become a DNS query),
while a table to join may be a host name, which is looked up when joining.
"""

from __future__ import annotations

import ipaddress

from .textclean import shown_value

DEFAULT_GAME_PORT = 47823  # the UDP port a table listens on unless told otherwise
# Where a new table listens unless told otherwise: every address of this
# machine, IPv6 and IPv4 on one socket (net.dualstack; IPv4 alone where the
# system cannot).  A table file keeps the bind it was given: one kept with
# 0.0.0.0, the default before, still listens on IPv4 alone.
DEFAULT_BIND = "::"


class AddressError(ValueError):
    """A HOST[:PORT] that cannot be understood."""


def parse_address(text: str, default_port: int = DEFAULT_GAME_PORT) -> tuple[str, int]:
    """``host``, ``host:port``, ``[v6]:port`` or a bare IPv6 address."""
    text = text.strip()
    if not text:
        raise AddressError("no address given")
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep:
            raise AddressError(f"{shown_value(text)}: missing ']'")
        port_text = rest[1:] if rest.startswith(":") else None
        if rest and not rest.startswith(":"):
            raise AddressError(f"{shown_value(text)}: expected ':PORT' after ']'")
        if not _is_ip(host, 6):
            raise AddressError(f"{_quoted(text, host)} in brackets is not an IPv6 address")
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, None  # a name, IPv4, or a bare IPv6 address
        if ":" in host and not _is_ip(host, 6):
            head, _, port_text = host.rpartition(":")
            port = port_number(port_text)
            # An IPv6 address and its port, without the brackets that part them.
            bracket = f"; {_write_bracketed(head, port)}" if port and _is_ip(head, 6) else ""
            raise AddressError(f"{shown_value(text)}: not HOST:PORT, nor an IPv6 address{bracket}")
    if not host:
        raise AddressError(f"{shown_value(text)}: no host")
    if not _is_ip(host) and not _is_host_name(host):
        # A backslash, a NUL or an escape would go to the resolver as a name.
        raise AddressError(f"{_quoted(text, host)} is not a host name or address")
    if _all_numbers(host) and not _is_ip(host, 4):
        # A host name never has this form (RFC 1123, 2.1), though the resolver
        # would read "47823" or "10.1" as some address: say so instead.
        raise AddressError(
            f"{_quoted(text, host)} is neither a host name nor an IPv4 address "
            "(four numbers 0-255, like 192.168.1.20)"
        )
    if port_text is None:
        return host, default_port
    if not port_text:  # "host:" is a port forgotten, not the default asked for
        raise AddressError(
            f"{shown_value(text)}: no port after ':' (leave the ':' out for {default_port})"
        )
    port = port_number(port_text)
    if port is None:
        raise AddressError(f"{_quoted(text, port_text)} is not a port (1-65535)")
    return host, port


def port_meant(text: str, default_port: int = DEFAULT_GAME_PORT) -> str | None:
    """A line for a bare IPv6 address whose last group looks like a port
    typed after it: ``fd00::2:5000`` is a valid address (at the default
    port), and a friend who meant port 5000 would wait on an address where
    no table is, told nothing.  None when it reads as meant (see
    :func:`bracketed_port`)."""
    meant = bracketed_port(text)
    if meant is None:
        return None
    return f"reading {text.strip()} as an address (port {default_port}); {meant}"


def bracketed_port(text: str) -> str | None:
    """ "for port 5000 write [fd00::2]:5000" for a bare IPv6 address whose
    last group looks like a port; else None.

    Said only when the text without that group is an address too (so never
    for ``::1``, nor a full eight groups), the group is decimal digits with
    no leading zero, a port from 1024 (``fe80::1:2`` is an address, not a
    port 2), and the whole is a plain ASCII line.  Brackets say what is
    meant: nothing then."""
    text = text.strip()
    if text.startswith("[") or not (text.isascii() and text.isprintable()):
        return None
    head, colon, group = text.rpartition(":")
    if not colon or not _is_ip(text, 6) or not _is_ip(head, 6):
        return None
    port = port_number(group)
    if port is None or port < 1024 or group.startswith("0"):
        return None
    return _write_bracketed(head, port)


def _write_bracketed(host: str, port: int) -> str:
    """How to write IPv6 address ``host`` with ``port``: in brackets."""
    return f"for port {port} write [{host}]:{port}"


def port_number(text: str) -> int | None:
    """``text`` as a port, 1 to 65535; None if it is not one.  ASCII digits
    only: "²" is a digit to str.isdigit, and int() raised on it (a join
    screen's "HOST:²" ended the app with a traceback)."""
    if not (text.isascii() and text.isdigit()):
        return None
    port = int(text)
    return port if 0 < port <= 65535 else None


def _quoted(text: str, part: str) -> str:
    """The part of an address at fault, after the whole if it is only a part."""
    return shown_value(part) if part == text else f"{shown_value(text)}: {shown_value(part)}"


def show_address(host: str, port: int) -> str:
    """``host:port``, with an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def every_address(bind: str) -> bool:
    """Whether ``bind`` is ``::`` (however spelt: "::0" too), which listens
    on IPv6 and IPv4 alike (net.dualstack)."""
    try:
        return ipaddress.ip_address(bind) == ipaddress.IPv6Address(DEFAULT_BIND)
    except ValueError:
        return False


def is_wildcard(bind: str) -> bool:
    """Whether a socket bound to ``bind`` listens on every address: "" and
    ``0.0.0.0`` (IPv4), or ``::`` however spelt (IPv6 and IPv4)."""
    return bind in ("", "0.0.0.0") or every_address(bind)


def reached_here(bind: str) -> str:
    """Where this machine reaches a socket bound to ``bind``: IPv4 loopback
    for a wildcard (every address: ``::`` takes IPv4 too, and is IPv4 alone
    on a system without IPv6, where ::1 reaches nothing), else the address
    itself."""
    if is_wildcard(bind):
        return "127.0.0.1"
    return bind


def ssh_door_bind(bind: str, port: int) -> str:
    """What the SSH door listens on for a table bound to ``bind``, at TCP
    ``port``: the same, but ``::`` (every address) becomes "" (asyncio's
    every address: a socket for each of IPv4 and IPv6, as it makes an IPv6
    TCP socket IPv6-only).  With port 0 those two would get two different
    free ports, and only one is shown: IPv4 alone then."""
    if not every_address(bind):
        return bind
    return "" if port else "0.0.0.0"


def ssh_door_address(bound: tuple[str, int], door_bind: str, table_bind: str) -> tuple[str, int]:
    """Where the SSH door listens, as its lines tell friends: ``bound`` is
    the address of the door's first socket, and a door on every address
    (``door_bind`` "") has one for each of IPv4 and IPv6, in whichever order
    the system lists them: that door listens where the table does."""
    return (table_bind if door_bind == "" else bound[0]), bound[1]


def _is_ip(text: str, version: int | None = None) -> bool:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return version is None or address.version == version


def _is_host_name(host: str) -> bool:
    """Labels of letters, digits, '-' and '_' (1 to 63 each, 253 in all),
    with a trailing dot allowed: what a resolver can be asked for.  Letters
    may be any script's (an internationalised name is encoded by the
    resolver's IDNA codec)."""
    name = host.removesuffix(".")
    if not 0 < len(name) <= 253:
        return False
    return all(
        0 < len(label) <= 63 and all(ch.isalnum() or ch in "-_" for ch in label)
        for label in name.split(".")
    )


def _all_numbers(host: str) -> bool:
    """Digits and dots only, like an IPv4 address: "256.1.1.1", "47823"."""
    return all(part.isascii() and part.isdigit() for part in host.split("."))


def bind_address(text: str) -> str:
    """An IP address to listen on (IPv4 or IPv6, no names)."""
    if not _is_ip(text.strip()):
        raise AddressError(
            f"{shown_value(text)} is not an IP address: give one, like :: (every address, "
            "IPv6 and IPv4), 0.0.0.0 (all IPv4), 127.0.0.1 or ::1 (host names are not looked up)"
        )
    return text.strip()


def announce_address(text: str) -> str:
    """Where LAN announcements go: an IPv4 address (a broadcast one, usually) or ``off``."""
    text = text.strip()
    if text == "off":
        return text
    if not _is_ip(text, 4):
        raise AddressError(
            f"{shown_value(text)} is neither 'off' nor an IPv4 address, like 255.255.255.255 or "
            "192.168.1.255 (host names are not looked up)"
        )
    return text


def address_group(host: str) -> str:
    """Whose share of a per-address bound (wrong room codes and seat words,
    spectators, connections at the SSH door) ``host`` counts towards, as
    one who can send from it could move.

    Every loopback address is one, this machine (anyone on it may send from
    any of 127.0.0.0/8, 16 million addresses).  A global IPv6 address counts
    as its /64, the network one machine or one home is given: a guesser
    stepping through the 2**64 addresses of its own /64 is still one
    guesser.  Link-local IPv6 (fe80::/10) is one /64 for the whole LAN, so
    there each address counts alone; an IPv4-mapped address is its IPv4."""
    bare = host.split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(bare)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if isinstance(ip, ipaddress.IPv6Address) and not ip.is_link_local:
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
