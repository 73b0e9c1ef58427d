-- CreateTable
CREATE TABLE "MarketSource" (
    "sourceKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "vintage" TEXT,
    "vintageNote" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "firstDate" DATE,
    "lastDate" DATE,
    "missingValues" INTEGER NOT NULL DEFAULT 0,
    "missing" JSONB NOT NULL,
    "badLines" JSONB NOT NULL,
    "ingestedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MarketSource_pkey" PRIMARY KEY ("sourceKey")
);

-- CreateTable
CREATE TABLE "PriceBar" (
    "ticker" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "open" TEXT NOT NULL,
    "high" TEXT NOT NULL,
    "low" TEXT NOT NULL,
    "close" TEXT NOT NULL,
    "volume" TEXT NOT NULL,
    "sourceKey" TEXT NOT NULL,

    CONSTRAINT "PriceBar_pkey" PRIMARY KEY ("ticker","date")
);

-- CreateTable
CREATE TABLE "FactorReturn" (
    "dataset" TEXT NOT NULL,
    "frequency" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "factor" TEXT NOT NULL,
    "value" TEXT,
    "sourceKey" TEXT NOT NULL,

    CONSTRAINT "FactorReturn_pkey" PRIMARY KEY ("dataset","frequency","period","factor")
);

-- CreateTable
CREATE TABLE "MacroSeries" (
    "seriesId" TEXT NOT NULL,
    "frequency" TEXT NOT NULL,
    "sourceKey" TEXT NOT NULL,
    "firstDate" DATE,
    "lastDate" DATE,
    "observations" INTEGER NOT NULL,
    "missing" INTEGER NOT NULL,

    CONSTRAINT "MacroSeries_pkey" PRIMARY KEY ("seriesId","frequency")
);

-- CreateTable
CREATE TABLE "MacroObservation" (
    "seriesId" TEXT NOT NULL,
    "frequency" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "value" TEXT,
    "sourceKey" TEXT NOT NULL,

    CONSTRAINT "MacroObservation_pkey" PRIMARY KEY ("seriesId","frequency","date")
);

-- CreateIndex
CREATE INDEX "PriceBar_sourceKey_idx" ON "PriceBar"("sourceKey");

-- CreateIndex
CREATE INDEX "FactorReturn_dataset_frequency_date_idx" ON "FactorReturn"("dataset", "frequency", "date");

-- CreateIndex
CREATE INDEX "FactorReturn_sourceKey_idx" ON "FactorReturn"("sourceKey");

-- CreateIndex
CREATE UNIQUE INDEX "MacroSeries_sourceKey_key" ON "MacroSeries"("sourceKey");

-- CreateIndex
CREATE INDEX "MacroObservation_sourceKey_idx" ON "MacroObservation"("sourceKey");

-- Market files were skipped until now ("not EDGAR data") and an unchanged item is skipped again
-- by digest. Forgetting those items makes the next ingest read them into the tables above.
DELETE FROM "IngestItem" WHERE "kind" = 'market_data';
