"""CDK code: reusable constructs (one per pattern) and the stack that composes them."""
