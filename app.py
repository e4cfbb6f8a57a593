#!/usr/bin/env python3
"""CDK entry point: `npx cdk synth` / `npx cdk deploy --all`, or `python app.py` to synthesize offline."""

import os

# jsii warns loudly on every start that Node 20 is past end of life; the machines we target ship it.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

from infra.app import create_app

# The CDK CLI passes CDK_OUTDIR; a plain `python app.py` writes where `cdk synth` would.
create_app(outdir=os.environ.get("CDK_OUTDIR", "cdk.out")).synth()
