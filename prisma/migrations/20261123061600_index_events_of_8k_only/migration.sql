-- Item numbers are 8-K items only on 8-K forms: events read from the items of other forms (an
-- ABS-15G lists Rule 15Ga-1 items such as 1.01) were taken for 8-K events. New ingests no longer
-- write them, and this removes the ones already held.
DELETE FROM "FilingEvent" AS e
USING "Filing" AS f
WHERE e."fromIndexOnly"
  AND e."item" IS NOT NULL
  AND e."accessionNumber" = f."accessionNumber"
  AND f."form" !~ '^8-K(12[BG]3?)?(/A)?$';
