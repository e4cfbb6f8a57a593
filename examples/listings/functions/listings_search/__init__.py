"""The listings example's own function code (boto3 and the zorder layer's `zindex`, nothing else)."""
