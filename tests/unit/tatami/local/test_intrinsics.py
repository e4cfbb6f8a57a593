"""tatami/local/template/intrinsics.py: CloudFormation functions resolved to local names."""

import pytest

from tatami.local.template.intrinsics import LOCAL_REGION, Resolver, UnresolvableError


@pytest.fixture
def resolver() -> Resolver:
    return Resolver(
        stack_name="Tatami",
        refs={"Places": "Tatami-Places", "Queue": "http://q/1"},
        attributes={("Places", "Arn"): "arn:aws:dynamodb:us-east-1:000000000000:table/Tatami-Places"},
        exports={"shared-bucket": "tatami-bucket"},
    )


def test_ref_getatt_join_and_pseudo_parameters(resolver: Resolver) -> None:
    value = {
        "Fn::Join": [":", [{"Ref": "Places"}, {"Fn::GetAtt": ["Places", "Arn"]}, {"Ref": "AWS::Region"}]]
    }
    assert resolver.resolve(value) == (
        f"Tatami-Places:arn:aws:dynamodb:us-east-1:000000000000:table/Tatami-Places:{LOCAL_REGION}"
    )


def test_sub_with_variables_attributes_and_escapes(resolver: Resolver) -> None:
    value = {"Fn::Sub": ["${Places}/${Name}/${Places.Arn}/${!Literal}", {"Name": {"Ref": "Queue"}}]}
    assert resolver.resolve(value) == (
        "Tatami-Places/http://q/1/arn:aws:dynamodb:us-east-1:000000000000:table/Tatami-Places/${Literal}"
    )


def test_select_split_and_import(resolver: Resolver) -> None:
    assert resolver.resolve({"Fn::Select": [1, {"Fn::Split": ["-", {"Ref": "Places"}]}]}) == "Places"
    assert resolver.resolve({"Fn::ImportValue": "shared-bucket"}) == "tatami-bucket"


def test_nested_structures_are_walked(resolver: Resolver) -> None:
    env = {"TABLE": {"Ref": "Places"}, "LIST": [{"Ref": "Queue"}, "x"], "PLAIN": 3}
    assert resolver.resolve(env) == {"TABLE": "Tatami-Places", "LIST": ["http://q/1", "x"], "PLAIN": 3}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"Ref": "Missing"}, "Ref Missing"),
        ({"Fn::GetAtt": ["Places", "StreamArn"]}, "Places.StreamArn"),
        ({"Fn::If": ["Cond", "a", "b"]}, "Fn::If is not supported"),
        ({"Fn::ImportValue": "nobody-exports-this"}, "nobody-exports-this"),
    ],
)
def test_unresolvable_values_name_what_is_missing(resolver: Resolver, value: object, message: str) -> None:
    with pytest.raises(UnresolvableError, match=message):
        resolver.resolve(value)
