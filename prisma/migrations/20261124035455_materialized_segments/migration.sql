-- CreateTable
CREATE TABLE "SegmentPeriod" (
    "cik" TEXT NOT NULL,
    "axis" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "axisOrder" INTEGER NOT NULL,
    "periodStart" DATE NOT NULL,
    "periodEnd" DATE NOT NULL,
    "confidence" TEXT NOT NULL,
    "body" JSONB NOT NULL,

    CONSTRAINT "SegmentPeriod_pkey" PRIMARY KEY ("cik","axis","periodStart","periodEnd")
);
