"""API Gateway's own 400s carry the functions' error shape (issue 18's finding): gateway responses in
the template, which the local cloud renders too."""

from __future__ import annotations

import json

from tatami.local.gateway.proxy import gateway_reply
from tatami.local.gateway.routes import GatewayResponse
from tests.support.synthesis import Synthesized


def test_bad_request_gateway_responses_answer_in_the_error_shape(synthesized: Synthesized) -> None:
    responses = {
        props["Properties"]["ResponseType"]: props["Properties"]
        for props in synthesized.resources("AWS::ApiGateway::GatewayResponse").values()
    }
    assert {"BAD_REQUEST_PARAMETERS", "BAD_REQUEST_BODY"} <= set(responses)
    for response_type in ("BAD_REQUEST_PARAMETERS", "BAD_REQUEST_BODY"):
        props = responses[response_type]
        assert props["StatusCode"] == "400"
        template = props["ResponseTemplates"]["application/json"]
        rendered = gateway_reply(GatewayResponse(400, template), 400, "Invalid 'x'", "rid")
        body = json.loads(rendered.body)  # valid JSON whatever the reason's quotes
        assert body["message"] == "Invalid 'x'"
        assert [set(error) for error in body["errors"]] == [{"field", "in", "message"}]
