-- CreateTable
CREATE TABLE "CompanyConcept" (
    "cik" TEXT NOT NULL,
    "taxonomy" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "hasDimensions" BOOLEAN NOT NULL,
    "factCount" INTEGER NOT NULL,
    "firstPeriodEnd" DATE NOT NULL,
    "lastPeriodEnd" DATE NOT NULL,
    "lastFiledAt" DATE,

    CONSTRAINT "CompanyConcept_pkey" PRIMARY KEY ("cik","taxonomy","tag","unit","hasDimensions")
);

-- Existing databases: summarise the facts already held (ingest keeps it current from here on).
INSERT INTO "CompanyConcept" ("cik", "taxonomy", "tag", "unit", "hasDimensions", "factCount", "firstPeriodEnd", "lastPeriodEnd", "lastFiledAt")
SELECT "cik", "taxonomy", "tag", "unit", "hasDimensions", count(*)::int, min("periodEnd"), max("periodEnd"), max("filedAt")
FROM "Fact"
GROUP BY "cik", "taxonomy", "tag", "unit", "hasDimensions";
