-- CreateTable
CREATE TABLE "DilutionRecord" (
    "id" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "isEvent" BOOLEAN NOT NULL DEFAULT false,
    "date" DATE,
    "orderedAt" DATE NOT NULL,
    "accessionNumber" TEXT,
    "form" TEXT,
    "filedAt" DATE,
    "fromIndexOnly" BOOLEAN NOT NULL DEFAULT false,
    "values" JSONB NOT NULL,
    "citationUrl" TEXT,
    "sourceSpan" TEXT NOT NULL,
    "confidence" TEXT NOT NULL,
    "method" TEXT NOT NULL,

    CONSTRAINT "DilutionRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DilutionProfile" (
    "cik" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "builtAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DilutionProfile_pkey" PRIMARY KEY ("cik")
);

-- CreateIndex
CREATE INDEX "DilutionRecord_cik_kind_orderedAt_id_idx" ON "DilutionRecord"("cik", "kind", "orderedAt" DESC, "id");

-- CreateIndex
CREATE INDEX "DilutionRecord_cik_isEvent_orderedAt_id_idx" ON "DilutionRecord"("cik", "isEvent", "orderedAt" DESC, "id");

-- CreateIndex
CREATE INDEX "DilutionRecord_accessionNumber_idx" ON "DilutionRecord"("accessionNumber");
