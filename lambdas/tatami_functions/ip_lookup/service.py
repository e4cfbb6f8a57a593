"""The IP lookup's logic: one Query per address, all within one dataset version.

The *pointer* (the alias: live version and prefix lengths) is cached per execution environment for
`LookupSettings.alias_ttl_seconds` (30 s), so a hot container spends one strongly consistent read
per 30 s on it and 0.5 RCU per lookup. A miss that a consistent dataset cannot produce (an empty
partition, or an item that ends below the address: the old version being deleted under a stale
pointer) re-reads the alias, at most once a second, and a batch whose version changed is answered
again as a whole: every answer of one request comes from one version.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from tatami_functions.ip_lookup.addresses import Address, parse_address
from tatami_functions.ip_lookup.exceptions import InvalidAddressError
from tatami_functions.ip_lookup.keys import Found, Pointer
from tatami_functions.ip_lookup.repository import RangesRepository, repository
from tatami_functions.ip_lookup.settings import LookupSettings

MISS_REREAD_SECONDS = 1.0
_PARALLEL = 16


class PointerCache:
    """The alias, read at most once per `ttl` seconds (and on a suspicious miss, once a second)."""

    def __init__(
        self, ranges: RangesRepository, ttl: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ranges, self.ttl, self._clock = ranges, ttl, clock
        self._lock = threading.Lock()
        self._pointer: Pointer | None = None
        self._read_at = float("-inf")

    def get(self) -> Pointer | None:
        return self._read(max_age=self.ttl)

    def refresh(self) -> Pointer | None:
        """Re-read the alias unless it was read within the last second."""
        return self._read(max_age=MISS_REREAD_SECONDS)

    def _read(self, max_age: float) -> Pointer | None:
        with self._lock:
            if self._clock() - self._read_at >= max_age:
                self._pointer, self._read_at = self.ranges.pointer(), self._clock()
            return self._pointer


@dataclass(frozen=True, slots=True)
class AddressAnswer:
    """One address's answer: HTTP-like `status` and the JSON `body`."""

    status: int
    body: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Resolution:
    """The answers of one request and the dataset version they all come from (None: none loaded)."""

    version: int | None
    answers: list[AddressAnswer]


def resolve(texts: Sequence[Any], cache: PointerCache | None = None) -> Resolution:
    """Look up every text; a bad address is a 400 in its own slot, an address with no data a 404.

    For example (not run as a doctest)::

        [o.status for o in resolve(["8.8.8.8", "nope"]).answers]
        # -> [200, 400]
    """
    cache = cache or default_cache()
    parsed = [_parse(text) for text in texts]
    wanted = sorted({p for p in parsed if isinstance(p, Address)})
    pointer = cache.get() if wanted else None
    found = _find_all(cache.ranges, pointer, wanted)
    if any(not (f and f.covers(a)) for a, f in found.items()):
        fresh = cache.refresh()
        if fresh != pointer:  # switched (or removed) while we were reading: answer from one version
            pointer, found = fresh, _find_all(cache.ranges, fresh, wanted)
    outcomes = [_outcome(text, p, found, pointer) for text, p in zip(texts, parsed, strict=True)]
    return Resolution(pointer.version if pointer else None, outcomes)


_cache: PointerCache | None = None
_pool: ThreadPoolExecutor | None = None


def default_cache() -> PointerCache:
    """The execution environment's pointer cache over the function's repository."""
    global _cache
    if _cache is None:
        _cache = PointerCache(repository(), LookupSettings.from_env().alias_ttl_seconds)
    return _cache


def _parse(text: Any) -> Address | InvalidAddressError:
    try:
        return parse_address(text, map_ipv4=True)
    except InvalidAddressError as exc:
        return exc


def _find_all(
    ranges: RangesRepository, pointer: Pointer | None, wanted: list[Address]
) -> dict[Address, Found | None]:
    if pointer is None:
        return dict.fromkeys(wanted)
    if len(wanted) == 1:
        return {wanted[0]: ranges.find(pointer, wanted[0])[0]}
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(_PARALLEL, thread_name_prefix="ip-lookup")
    answers = _pool.map(lambda address: ranges.find(pointer, address)[0], wanted)
    return dict(zip(wanted, answers, strict=True))


def _outcome(
    text: Any,
    parsed: Address | InvalidAddressError,
    found: dict[Address, Found | None],
    pointer: Pointer | None,
) -> AddressAnswer:
    if isinstance(parsed, InvalidAddressError):
        return AddressAnswer(400, {"address": text, "message": f"address: {parsed}"})
    hit = found[parsed]
    if hit is None or hit.data is None or not hit.covers(parsed):
        reason = "no IP dataset is loaded" if pointer is None else "the address is in no range of the dataset"
        return AddressAnswer(404, {"address": str(parsed), "message": f"no data for {parsed}: {reason}"})
    return AddressAnswer(200, {"address": str(parsed), "start": hit.start, "end": hit.end, "data": hit.data})
