"""One socket for IPv6 and IPv4: binding ``::`` and the addresses it sees.

A server bound to ``::`` listens on every address of its machine.  With
``IPV6_V6ONLY`` off (Linux's default, not the BSDs' nor Windows'), that
socket takes IPv4 datagrams too, and reports their senders as IPv4-mapped
IPv6 addresses: ``::ffff:127.0.0.1``.  This module binds such a socket
whatever the system's default, falls back to IPv4 alone (``0.0.0.0``)
where the system has no IPv6 or cannot mix the two on one socket, and turns
a mapped address back into the IPv4 address it is (and the other way for
sending), so that above the transport an IPv4 peer has one address
however the server was bound: its per-address limits, its cookies and its
sessions never see one sender under two names.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import socket

import asyncio_dgram

log = logging.getLogger(__name__)

EVERY_ADDRESS = "::"
"""The bind address meaning every address of the machine, IPv6 and IPv4."""
IPV4_ONLY = "0.0.0.0"
"""Where ``EVERY_ADDRESS`` binds when the system cannot take both on one socket."""

_MAPPED_PREFIX = "::ffff:"
# The system has no IPv6 (a kernel without it, or IPv6 turned off): the
# errors socket() and bind() give then.  Any other (the port is taken, say)
# is the caller's to see.
_NO_IPV6 = {errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL, errno.EPROTONOSUPPORT}


def is_every_address(host: str) -> bool:
    """Whether ``host`` is ``::``, however spelt ("::0", "0:0:0:0:0:0:0:0")."""
    try:
        return ipaddress.ip_address(host) == ipaddress.IPv6Address(EVERY_ADDRESS)
    except ValueError:
        return False


def unmapped(host: str) -> str:
    """``host``, or the IPv4 address an IPv4-mapped IPv6 address stands for."""
    if host[:7].lower() != _MAPPED_PREFIX or "." not in host:
        return host  # the cheap test first: this runs for every datagram
    try:
        ipv4 = ipaddress.IPv6Address(host).ipv4_mapped
    except ValueError:
        return host
    return host if ipv4 is None else str(ipv4)


def for_family(family: int, host: str) -> str:
    """``host`` as a socket of ``family`` sends to it: an IPv4 address is
    sent to from an IPv6 socket as its IPv4-mapped address."""
    if family == socket.AF_INET6 and ":" not in host:
        return _MAPPED_PREFIX + host
    return host


def _dual_stack_socket(port: int) -> socket.socket | None:
    """A UDP socket bound to ``::`` that takes IPv4 datagrams too, or None
    where the system cannot have one."""
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    except OSError as err:
        if err.errno in _NO_IPV6:
            return None
        raise
    try:
        # Off explicitly: the BSDs and Windows default to on, and Linux may
        # be set so (net.ipv6.bindv6only).  OpenBSD refuses to turn it off.
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    except (OSError, AttributeError):  # AttributeError: a Python without the option
        sock.close()
        return None
    try:
        sock.bind((EVERY_ADDRESS, port))
    except OSError as err:
        sock.close()
        if err.errno in _NO_IPV6:
            return None
        raise
    return sock


async def bind_every_address(
    port: int,
) -> asyncio_dgram.aio.DatagramServer | asyncio_dgram.aio.DatagramClient:
    """A datagram server on every address of the machine, IPv6 and IPv4 on
    one socket; IPv4 alone where the system cannot have both there.  (A
    DatagramServer in fact: from_socket is typed for either.)"""
    sock = _dual_stack_socket(port)
    if sock is None:
        log.info("no dual-stack socket on this system: listening on IPv4 only")
        return await asyncio_dgram.bind((IPV4_ONLY, port))
    try:
        return await asyncio_dgram.from_socket(sock)
    except BaseException:
        sock.close()
        raise
