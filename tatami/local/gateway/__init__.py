"""API Gateway's REST API served on loopback: the resource tree and gateway responses from the
template (`routes`), the HTTP server and API Gateway's own answers (`server`), requests read under
deadlines (`request_reading`), and the Lambda proxy integration: the event a function receives and
the reply made of its answer (`proxy`, `integration`).
"""
