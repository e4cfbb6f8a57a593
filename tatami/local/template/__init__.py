"""Reading the synthesized cloud assembly: the templates and asset manifests of cdk.out as plain specs
(`assembly`), and CloudFormation's intrinsic functions resolved to local names and ARNs
(`intrinsics`). Everything else of the local cloud is built from these specs, never from a second
description of the app.
"""
