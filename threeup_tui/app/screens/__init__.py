"""Screens of the app, one module per screen."""
