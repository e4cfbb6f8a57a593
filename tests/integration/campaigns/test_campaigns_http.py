"""The campaigns routes over real HTTP on the app's local cloud, with the sample `make run` loads."""

from __future__ import annotations

from tests.support.models_workshop import call, get


def test_get_campaign_candidates_for_the_seeds_sticker(workshop_api: str) -> None:
    body = get(
        workshop_api, "/campaigns/candidates", prefecture="千葉県", birth_month=12, order_month=12
    ).json()
    assert body["items"] == ["MAX", "RIN"] and body["next"] is None
    assert set(body["stats"]["items_read_by_index"]) == {"prefecture", "birth_month", "order_month"}
    only_chiba = get(workshop_api, "/campaigns/candidates", prefecture="千葉県").json()["items"]
    assert only_chiba == ["AYA", "KEN", "MAX", "RIN", "TOM"]


def test_put_and_get_a_campaign_profile(workshop_api: str) -> None:
    assert (
        call(
            workshop_api, "PUT", "/campaigns/users/NEW", {"prefecture": "千葉県", "birth_month": 12}
        ).status_code
        == 200
    )
    assert get(workshop_api, "/campaigns/users/NEW").json() == {
        "user_id": "NEW",
        "prefecture": "千葉県",
        "birth_month": 12,
    }
    assert get(workshop_api, "/campaigns/users/NOBODY").status_code == 404
