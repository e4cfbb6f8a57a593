"""tatami: the command line and the local cloud for the tatami CDK application."""
