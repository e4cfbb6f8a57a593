"""The places service: GeoNames-style places searchable by latitude, longitude and population.

One table (key ``id``), one ZOrderIndex over it, and one API function serving ``PUT/GET /places/{id}``
and ``GET /places/search``. The index's shape was chosen by measurement (bench/zorder_search.py):

* ``latitude``/``longitude`` as ``Fixed`` 16 bits (steps of 0.0027 and 0.0055 degrees, i.e. ~300 m) and
  ``population`` as ``UInt(32)``. zorder aligns every dimension's top bits at the top of the address, so
  the population's top 16 bits share levels with latitude/longitude; nearly every place has fewer than
  65,536 inhabitants, those bits are zero, and a box that leaves population open behaves like a 2-D
  box. A log-scaled ``Float(32)`` population, tried while designing, spreads every box over ~16
  population octaves: several times the Queries for the same reads.
* Population resolved up to 2**20 - 1 (about a million): larger populations share that address (the
  index's ``domain`` saturates) and a bound above it is applied by the filter alone. The population
  bits above 2**20 are then always zero. A box that leaves population open covers only the populations
  that occur everywhere. With the ceiling at 2**26 it also covered the big-city populations, which are
  empty in nearly every small box yet lie apart in Z order: 1,380 of 4,107 Queries read nothing
  (bench/zorder_layouts.py, in-memory replay): Queries 4,107 -> 3,238, read amplification 1.25 -> 1.22.
* 11 bucket bits: the top 4 bits of latitude and longitude (the population bits among them are zero),
  256 buckets of 11.25 x 22.5 degrees to spread writes; measured to cost no more Queries than 6 bits.
* INCLUDE projection of the attributes search returns: one round trip per range, no GetItem.
"""

from __future__ import annotations

from aws_cdk import CfnOutput, Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from infra import constants
from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.zorder_index import ZOrderIndex
from zorder import Fixed, Schema, UInt

SERVICE = "places"
INDEX_NAME = "places-z"
BUCKET_BITS = 11
PLACES_SCHEMA = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
PROJECTED = ("name", "latitude", "longitude", "population", "country")
# Population resolved up to about a million; larger ones are indexed at the ceiling (see above).
POPULATION_CEILING = 2**20 - 1
PLACES_DOMAIN = {"population": (None, POPULATION_CEILING)}


class PlacesService(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(
            self,
            "Table",
            partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING),
            dynamo_stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
        )
        self.api_function = ServiceFunction(
            self,
            "ApiFunction",
            layers=shared.layers,
            service=SERVICE,
            handler="places.handler.handler",
            uses_zorder=True,
            # Planning is CPU-bound Python; 1,769 MB buys one full vCPU.
            memory_size=1769,
            timeout=Duration.seconds(29),
            description="tatami places: PUT/GET /places/{id}, GET /places/search (Z-order box search)",
        )
        self.index = ZOrderIndex(
            self,
            "ZIndex",
            shared=shared,
            table=self.table,
            schema=PLACES_SCHEMA,
            index_name=INDEX_NAME,
            bucket_bits=BUCKET_BITS,
            service=SERVICE,
            maintainer_handler="places.maintainer_handler.handler",
            projection=dynamodb.ProjectionType.INCLUDE,
            non_key_attributes=PROJECTED,
            domain=PLACES_DOMAIN,
        )
        self.index.grant_search(self.api_function, "dynamodb:UpdateItem")
        shared.page_tokens.grant(self.api_function)
        shared.api.add_routes(
            self.api_function,
            [Route("GET", "/places/search"), Route("GET", "/places/{id}"), Route("PUT", "/places/{id}")],
        )
        stack = Stack.of(self)
        CfnOutput(stack, constants.OUTPUT_PLACES_TABLE, value=self.table.table_name)
        CfnOutput(stack, constants.OUTPUT_PLACES_ZINDEX, value=self.index.settings_json())
        CfnOutput(stack, constants.OUTPUT_PLACES_FAILURES, value=self.index.failures.queue_url)
