-- Offering records now carry the reverse splits the document recounts (ratio, effective date and
-- sentence), which the dilution records use. Forgetting the offering ingest items makes the next
-- ingest read those documents again, since an unchanged item is otherwise skipped by its digest.
DELETE FROM "IngestItem" WHERE "kind" = 'offering';
