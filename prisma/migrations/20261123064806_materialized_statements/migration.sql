-- CreateTable
CREATE TABLE "StatementPeriod" (
    "cik" TEXT NOT NULL,
    "basis" TEXT NOT NULL,
    "periodEnd" DATE NOT NULL,
    "fiscalYear" INTEGER NOT NULL,
    "fiscalPeriod" TEXT NOT NULL,
    "body" JSONB NOT NULL,

    CONSTRAINT "StatementPeriod_pkey" PRIMARY KEY ("cik","basis","periodEnd")
);

-- CreateTable
CREATE TABLE "StatementProfile" (
    "cik" TEXT NOT NULL,
    "taxonomy" TEXT,
    "currency" TEXT,
    "version" INTEGER NOT NULL,
    "builtAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StatementProfile_pkey" PRIMARY KEY ("cik")
);
