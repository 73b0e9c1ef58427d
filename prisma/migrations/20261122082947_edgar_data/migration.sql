-- CreateTable
CREATE TABLE "Entity" (
    "cik" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'issuer',
    "entityType" TEXT,
    "sic" TEXT,
    "sicDescription" TEXT,
    "stateOfIncorporation" TEXT,
    "fiscalYearEnd" TEXT,
    "tickers" TEXT[],
    "exchanges" TEXT[],
    "formerNames" JSONB,
    "hasSubmissions" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Entity_pkey" PRIMARY KEY ("cik")
);

-- CreateTable
CREATE TABLE "Ticker" (
    "ticker" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "exchange" TEXT,

    CONSTRAINT "Ticker_pkey" PRIMARY KEY ("ticker")
);

-- CreateTable
CREATE TABLE "Filing" (
    "accessionNumber" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "form" TEXT NOT NULL,
    "filedAt" DATE,
    "acceptedAt" TIMESTAMP(3),
    "orderedAt" TIMESTAMP(3) NOT NULL,
    "reportDate" DATE,
    "items" TEXT[],
    "primaryDocument" TEXT,
    "primaryDocDescription" TEXT,
    "size" INTEGER,
    "isXbrl" BOOLEAN NOT NULL DEFAULT false,
    "isInlineXbrl" BOOLEAN NOT NULL DEFAULT false,
    "fileNumber" TEXT,
    "filmNumber" TEXT,
    "documentSourceKey" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Filing_pkey" PRIMARY KEY ("accessionNumber")
);

-- CreateTable
CREATE TABLE "Section" (
    "accessionNumber" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "charCount" INTEGER NOT NULL,

    CONSTRAINT "Section_pkey" PRIMARY KEY ("accessionNumber","key")
);

-- CreateTable
CREATE TABLE "Concept" (
    "taxonomy" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "label" TEXT,
    "description" TEXT,

    CONSTRAINT "Concept_pkey" PRIMARY KEY ("taxonomy","tag")
);

-- CreateTable
CREATE TABLE "Fact" (
    "id" BIGSERIAL NOT NULL,
    "factKey" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "taxonomy" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "periodStart" DATE,
    "periodEnd" DATE NOT NULL,
    "isInstant" BOOLEAN NOT NULL,
    "fy" INTEGER,
    "fp" TEXT,
    "form" TEXT,
    "frame" TEXT,
    "accessionNumber" TEXT NOT NULL,
    "filedAt" DATE,
    "dimensions" JSONB NOT NULL,
    "hasDimensions" BOOLEAN NOT NULL DEFAULT false,
    "decimals" TEXT,
    "source" TEXT NOT NULL,

    CONSTRAINT "Fact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FormRecord" (
    "id" TEXT NOT NULL,
    "accessionNumber" TEXT,
    "family" TEXT NOT NULL,
    "formType" TEXT NOT NULL,
    "cik" TEXT,
    "filedAt" DATE,
    "periodOfReport" DATE,
    "orderedAt" DATE NOT NULL,
    "isSample" BOOLEAN NOT NULL DEFAULT false,
    "parties" JSONB NOT NULL,
    "data" JSONB NOT NULL,
    "sourceKey" TEXT NOT NULL,

    CONSTRAINT "FormRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FilingEvent" (
    "id" TEXT NOT NULL,
    "accessionNumber" TEXT,
    "cik" TEXT,
    "item" TEXT,
    "type" TEXT NOT NULL,
    "eventDate" DATE,
    "filedAt" DATE,
    "orderedAt" DATE NOT NULL,
    "fromIndexOnly" BOOLEAN NOT NULL DEFAULT false,
    "confidence" TEXT,
    "data" JSONB NOT NULL,
    "sourceKey" TEXT NOT NULL,

    CONSTRAINT "FilingEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IngestItem" (
    "sourceKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "records" INTEGER NOT NULL DEFAULT 0,
    "runId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IngestItem_pkey" PRIMARY KEY ("sourceKey")
);

-- CreateTable
CREATE TABLE "IngestRun" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "read" INTEGER NOT NULL DEFAULT 0,
    "written" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "IngestRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Entity_name_idx" ON "Entity"("name");

-- CreateIndex
CREATE INDEX "Ticker_cik_idx" ON "Ticker"("cik");

-- CreateIndex
CREATE INDEX "Filing_cik_form_orderedAt_idx" ON "Filing"("cik", "form", "orderedAt");

-- CreateIndex
CREATE INDEX "Filing_form_orderedAt_idx" ON "Filing"("form", "orderedAt");

-- CreateIndex
CREATE INDEX "Filing_orderedAt_idx" ON "Filing"("orderedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Fact_factKey_key" ON "Fact"("factKey");

-- CreateIndex
CREATE INDEX "Fact_cik_tag_idx" ON "Fact"("cik", "tag");

-- CreateIndex
CREATE INDEX "Fact_cik_hasDimensions_idx" ON "Fact"("cik", "hasDimensions");

-- CreateIndex
CREATE INDEX "FormRecord_family_orderedAt_idx" ON "FormRecord"("family", "orderedAt");

-- CreateIndex
CREATE INDEX "FormRecord_cik_idx" ON "FormRecord"("cik");

-- CreateIndex
CREATE INDEX "FilingEvent_type_orderedAt_idx" ON "FilingEvent"("type", "orderedAt");

-- CreateIndex
CREATE INDEX "FilingEvent_cik_type_idx" ON "FilingEvent"("cik", "type");

-- CreateIndex
CREATE INDEX "FilingEvent_accessionNumber_idx" ON "FilingEvent"("accessionNumber");

-- CreateIndex
CREATE INDEX "IngestItem_status_idx" ON "IngestItem"("status");

-- AddForeignKey
ALTER TABLE "Filing" ADD CONSTRAINT "Filing_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Section" ADD CONSTRAINT "Section_accessionNumber_fkey" FOREIGN KEY ("accessionNumber") REFERENCES "Filing"("accessionNumber") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fact" ADD CONSTRAINT "Fact_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormRecord" ADD CONSTRAINT "FormRecord_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FilingEvent" ADD CONSTRAINT "FilingEvent_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FilingEvent" ADD CONSTRAINT "FilingEvent_accessionNumber_fkey" FOREIGN KEY ("accessionNumber") REFERENCES "Filing"("accessionNumber") ON DELETE SET NULL ON UPDATE CASCADE;
