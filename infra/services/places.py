"""The places service: GeoNames-style places searchable by latitude, longitude and population.

One table (``tatami_functions.places.table``: key ``id``), the indexes its engine declaration names (a
Z index and a population-sorted index) kept by the engine's maintainer, and one API function serving
``PUT/GET /places/{id}`` and ``GET /places/search``.
"""

from __future__ import annotations

from aws_cdk import CfnOutput, Duration, Stack
from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_table
from infra.patterns import ZOrderIndex
from tatami_functions import stack_outputs
from tatami_functions.places.table import PLACES, PLACES_TABLE

SERVICE = "places"


class PlacesService(Construct):
    """The places table, its engine indexes and maintainer, and the API function.

    For example (not run as a doctest)::

        PlacesService(stack, "Places", shared=shared)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(self, "Table", PLACES_TABLE, output=stack_outputs.OUTPUT_PLACES_TABLE)
        self.api_function = ApiFunction(
            self,
            "ApiFunction",
            shared=shared,
            service=SERVICE,
            uses_zorder=True,
            # Planning is CPU-bound Python; 1,769 MB buys one full vCPU.
            memory_size=1769,
            timeout=Duration.seconds(25),  # the most the API allows (service_api.COLD_START_ALLOWANCE)
            description="tatami places: PUT/GET /places/{id}, GET /places/search (Z-order box search)",
        )
        self.index = ZOrderIndex(
            self, "ZIndex", table=self.table, declaration=PLACES, functions=shared.pattern_functions(SERVICE)
        )
        self.index.grant_search(self.api_function)
        grant_table(self.api_function, self.table, "UpdateItem")  # PUT /places/{id}
        stack = Stack.of(self)
        CfnOutput(stack, stack_outputs.OUTPUT_PLACES_ZINDEX, value=self.index.declaration.to_json())
        CfnOutput(stack, stack_outputs.OUTPUT_PLACES_FAILURES, value=self.index.failures.queue_url)
