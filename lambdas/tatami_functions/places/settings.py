"""The places function's settings: the engine's declaration of the places table (its name, attributes
and indexes), which the ZOrderIndex construct's `grant_search` sets under the engine's own variable."""

from __future__ import annotations

from tatami_functions.common.settings import Settings, variable
from zindex import ENV, IndexedTable


class PlacesSettings(Settings):
    index: IndexedTable = variable(ENV, IndexedTable.from_json, dump=IndexedTable.to_json)
