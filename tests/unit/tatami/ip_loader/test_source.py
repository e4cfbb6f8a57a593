"""Every way a CSV can be wrong is reported with its file and line, and nothing is half-read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tatami.ip_loader.exceptions import InvalidSourceError
from tatami.ip_loader.plan import plan
from tatami.ip_loader.source import MAX_REPORTED, read_source


def csv_file(tmp_path: Path, text: str, name: str = "ranges.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(InvalidSourceError) as caught:
        plan(read_source([csv_file(tmp_path, text)]).rows)
    assert "nothing was written" in str(caught.value)
    return caught.value.problems


def test_start_end_rows_with_metadata(tmp_path: Path) -> None:
    source = read_source(
        [csv_file(tmp_path, 'start,end,asn,owner\n1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."\n')]
    )
    (row,) = source.rows
    assert (str(row.start), str(row.end), row.data, row.origin) == (
        "1.0.0.0",
        "1.0.0.255",
        {"asn": "13335", "owner": "Cloudflare, Inc."},
        "ranges.csv:2",
    )
    assert len(source.digest) == 64


def test_the_seeds_space_aligned_form_with_a_netblock_column(tmp_path: Path) -> None:
    text = (
        "Netblock     , start     , end         , metadata\n"
        "1.0.0.0/24   , 1.0.0.0   , 1.0.0.255   , Range 1.0.0.0/24 metadata\n"
        "1.0.2.0/23   , 1.0.2.0   , 1.0.3.255   , Range 1.0.2.0/23 metadata\n"
    )
    rows = read_source([csv_file(tmp_path, text)]).rows
    assert [r.data for r in rows][1] == {"Netblock": "1.0.2.0/23", "metadata": "Range 1.0.2.0/23 metadata"}


def test_network_rows_both_families_blank_lines_and_a_bom(tmp_path: Path) -> None:
    text = "\ufeffnetwork,country\n10.0.0.0/8,ZZ\n\n2001:db8::/32,JP\n"
    rows = read_source([csv_file(tmp_path, text)]).rows
    assert [(str(r.start), str(r.end), r.data) for r in rows] == [
        ("10.0.0.0", "10.255.255.255", {"country": "ZZ"}),
        ("2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", {"country": "JP"}),
    ]
    assert rows[1].origin == "ranges.csv:4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("start,end\n1.0.0.0,1.0.0.x\n", "ranges.csv:2: end: '1.0.0.x' is not an IPv4 or IPv6 address"),
        ("start,end\n1.0.0,1.0.0.9\n", "ranges.csv:2: start: '1.0.0' is not an IPv4 or IPv6 address"),
        (
            "network\n10.0.0.1/8\n",
            "ranges.csv:2: '10.0.0.1/8' is not a CIDR network (10.0.0.1/8 has host bits set)",
        ),
        ("start,end\n1.0.0.9,1.0.0.0\n", "ranges.csv:2: start 1.0.0.9 > end 1.0.0.0 (swap them?)"),
        (
            "start,end\n1.0.0.0,::1\n",
            "ranges.csv:2: mixed families: start 1.0.0.0 is IPv4 but end ::1 is IPv6",
        ),
        ("start,end,x\n1.0.0.0,1.0.0.1\n", "ranges.csv:2: 2 cells, but the header has 3 columns"),
        (
            "1.0.0.0,1.0.0.255,AU\n",
            "ranges.csv:1: expected a header row (start,end or network, then metadata)",
        ),
        ("10.0.0.0/8,AU\n", "ranges.csv:1: expected a header row"),
        (
            "from,to\n1.0.0.0,1.0.0.1\n",
            "ranges.csv:1: the header needs columns start,end or network (found from,to)",
        ),
        ("start,end,\n", "ranges.csv:1: column 3 has no name"),
        ("start,end,asn,ASN\n", "ranges.csv:1: duplicate column(s) asn"),
        ("\n\n", "ranges.csv: empty file"),
    ],
)
def test_each_bad_file_or_row_is_named(tmp_path: Path, text: str, message: str) -> None:
    assert problems(tmp_path, text)[0].startswith(message)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("start,end,owner\n1.0.0.0,1.0.0.1,Zürich\n".encode("latin-1"))
    with pytest.raises(InvalidSourceError, match=r"latin.csv: not UTF-8 text \(byte 33\)"):
        read_source([path])


def test_overlapping_rows_name_both_line_numbers(tmp_path: Path) -> None:
    text = "start,end\n1.0.0.0,1.0.0.255\n2.0.0.0,2.0.0.9\n1.0.0.128,1.0.1.0\n"
    assert problems(tmp_path, text) == [
        "ranges.csv:4: range 1.0.0.128-1.0.1.0 overlaps ranges.csv:2 (1.0.0.0-1.0.0.255)"
    ]


def test_a_range_inside_a_wider_one_and_a_shared_boundary_overlap(tmp_path: Path) -> None:
    text = (
        "start,end\n10.0.0.0,10.255.255.255\n10.1.0.0,10.1.0.9\n10.2.0.0,10.2.0.9\n10.255.255.255,11.0.0.0\n"
    )
    found = problems(tmp_path, text)
    assert [p.split(":")[1] for p in found] == ["3", "4", "5"]
    assert all("overlaps ranges.csv:2" in p for p in found)


def test_overlaps_across_files_and_families_apart(tmp_path: Path) -> None:
    first = csv_file(tmp_path, "start,end\n1.0.0.0,1.0.0.255\n::,::ff\n", "a.csv")
    second = csv_file(tmp_path, "network\n1.0.0.0/28\n", "b.csv")
    with pytest.raises(InvalidSourceError, match=r"b.csv:2: range 1.0.0.0-1.0.0.15 overlaps a.csv:2"):
        plan(read_source([first, second]).rows)


def test_every_bad_row_is_reported_up_to_a_cap(tmp_path: Path) -> None:
    text = "start,end\n" + "bad,bad\n" * (MAX_REPORTED + 7)
    with pytest.raises(InvalidSourceError) as caught:
        read_source([csv_file(tmp_path, text)])
    assert len(caught.value.problems) == MAX_REPORTED and caught.value.more == 7
    assert f"{MAX_REPORTED + 7} problem(s)" in str(caught.value)
