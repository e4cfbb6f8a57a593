"""What invokes functions besides the API: DynamoDB stream event-source mappings polled
(`streams`), their records as Lambda hands them over (`stream_records`), filtered (`filters`) and
delivered in batches with Lambda's retry and bisection rules (`delivery`); and EventBridge's
scheduled rules fired on demand (`rules`).
"""
