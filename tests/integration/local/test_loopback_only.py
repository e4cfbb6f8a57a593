"""Loopback means loopback: from the machine's own non-loopback addresses (IPv4 and IPv6), no port of
a running local cloud answers (DynamoDB Local, moto, the API with its console, the control port), and
every socket that the local cloud's processes listen on is bound to 127.0.0.1 or ::1."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator

import psutil
import pytest

from tatami.local.cloud import LocalCloud
from tatami.local.control import ControlServer


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


@pytest.fixture(scope="module")
def ports(probe_cloud: LocalCloud) -> Iterator[dict[str, int]]:
    """Every port of the probe cloud as `tatami local` runs it (its control endpoint too)."""
    control = ControlServer(probe_cloud)
    yield {
        "API and console": probe_cloud.api.port if probe_cloud.api else 0,
        "control": _port(control.url),
        "DynamoDB Local": probe_cloud.config.dynamodb_port,
        "moto": probe_cloud.config.moto_port,
    }
    control.stop()


def _non_loopback_addresses() -> list[str]:
    """This machine's own addresses that are not loopback (link-local IPv6 with its interface)."""
    found = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family in (socket.AF_INET, socket.AF_INET6):
                host = address.address
                if not ipaddress.ip_address(host.split("%")[0]).is_loopback:
                    found.append(host)
    return found


def _answers(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(3)
        try:
            sock.connect(socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)[0][4])
        except OSError:
            return False
        return True


def test_no_port_of_the_local_cloud_answers_on_a_non_loopback_address(ports: dict[str, int]) -> None:
    addresses = _non_loopback_addresses()
    if not addresses:
        pytest.skip("this machine has no address but loopback")
    assert all(_answers("127.0.0.1", port) for port in ports.values()), ports  # they do serve
    answering = [(what, host) for what, port in ports.items() for host in addresses if _answers(host, port)]
    print(f"tried {len(ports)} ports on {addresses}")
    assert not answering, f"answering beyond loopback: {answering}"


def test_every_socket_the_local_clouds_processes_listen_on_is_loopback(ports: dict[str, int]) -> None:
    """Whatever ports an engine or worker opens beside the known ones (this process runs the clouds)."""
    processes = [psutil.Process(), *psutil.Process().children(recursive=True)]
    listening = [
        (process.pid, connection.laddr)
        for process in processes
        for connection in _connections(process)
        if connection.status == psutil.CONN_LISTEN
    ]
    assert {port for _pid, (_host, port) in listening} >= set(ports.values())
    exposed = [(pid, address) for pid, address in listening if not _loopback(address.ip)]
    assert not exposed, f"listening beyond loopback: {exposed}"


def _connections(process: psutil.Process) -> list[psutil._common.pconn]:
    try:
        return process.net_connections(kind="inet")
    except psutil.NoSuchProcess:  # a worker that ended meanwhile
        return []


def _loopback(ip: str) -> bool:
    """127.0.0.0/8, ::1, and IPv4 loopback as Java reports it on a dual-stack socket (::ffff:127.0.0.1)."""
    address = ipaddress.ip_address(ip)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
