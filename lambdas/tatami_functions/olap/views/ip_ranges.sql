-- One row per range of the live dataset (the alias item names its version), however many partition
-- pieces the loader cut it into; gaps ("no data" pieces) are left out. IPv4 ranges count their
-- addresses (IPv6 counts overflow a BIGINT: NULL).
SELECT
  family,
  range_start,
  range_end,
  country,
  asn,
  organization,
  CASE
    WHEN family = '4' THEN
      CAST(split_part(range_end, '.', 1) AS BIGINT) * 16777216
      + CAST(split_part(range_end, '.', 2) AS BIGINT) * 65536
      + CAST(split_part(range_end, '.', 3) AS BIGINT) * 256
      + CAST(split_part(range_end, '.', 4) AS BIGINT)
      - CAST(split_part(range_start, '.', 1) AS BIGINT) * 16777216
      - CAST(split_part(range_start, '.', 2) AS BIGINT) * 65536
      - CAST(split_part(range_start, '.', 3) AS BIGINT) * 256
      - CAST(split_part(range_start, '.', 4) AS BIGINT)
      + 1
  END AS addresses
FROM (
  SELECT DISTINCT
    split_part(piece.item.pk.s, '#', 2) AS family,
    piece.item.start.s AS range_start,
    piece.item."end".s AS range_end,
    piece.item.data.m.country.s AS country,
    piece.item.data.m.asn.s AS asn,
    piece.item.data.m.organization.s AS organization
  FROM raw_ip_ranges AS piece
  JOIN (
    SELECT 'v' || item.version.n AS version
    FROM raw_ip_ranges
    WHERE item.pk.s = 'alias#current'
  ) AS live ON split_part(piece.item.pk.s, '#', 1) = live.version
  WHERE piece.item.gap.bool IS NULL
) AS ranges
