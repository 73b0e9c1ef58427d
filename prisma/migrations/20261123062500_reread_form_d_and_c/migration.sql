-- Form D and Form C records took their signature date for the filing date when the notice stated
-- none. The parsers no longer do. Forgetting these items makes the next ingest read them again
-- (an unchanged item is otherwise skipped), and until then their date is not passed off as filed.
DELETE FROM "IngestItem" WHERE "kind" IN ('form_d', 'form_c');
UPDATE "FormRecord" AS r SET "filedAt" = NULL
WHERE r."family" IN ('D', 'C')
  AND NOT EXISTS (SELECT 1 FROM "Filing" AS f WHERE f."accessionNumber" = r."accessionNumber" AND f."documentSourceKey" IS DISTINCT FROM r."sourceKey");
