"""Real damage to a real game file, as a failing disk or a stray `dd` leaves it (no mock: the bytes change)."""
from __future__ import annotations

from pathlib import Path

BTREE_PAGES = {0x02, 0x05, 0x0A, 0x0D}     # SQLite's b-tree page types (the first byte of a page's header)


def flip_across(path: Path) -> None:
    """Bytes flipped every 97 bytes across the whole file, its header included: not a database any more."""
    data = bytearray(path.read_bytes())
    for i in range(0, len(data), 97):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


def flip_two_in_the_middle(path: Path) -> None:
    """Two bytes flipped in the middle of the file: the cell count of the first b-tree page from the
    middle on. The file still opens, and reads of other pages still work: only a read of that page,
    or SQLite's quick_check, finds it malformed."""
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big") or 65536
    pages = len(data) // page_size
    for page in range(pages // 2, pages):
        start = page * page_size
        if data[start] in BTREE_PAGES and int.from_bytes(data[start + 3:start + 5], "big") > 0:
            data[start + 3] ^= 0xFF
            data[start + 4] ^= 0xFF
            path.write_bytes(bytes(data))
            return
    raise AssertionError(f"{path} has no b-tree page with cells in its second half")


DAMAGE = {"across": flip_across, "middle": flip_two_in_the_middle}
