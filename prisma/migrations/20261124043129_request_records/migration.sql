-- CreateTable
CREATE TABLE "RequestRecord" (
    "id" TEXT NOT NULL,
    "orgId" TEXT,
    "door" TEXT NOT NULL,
    "operation" TEXT,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "errorCode" TEXT,
    "meterClass" TEXT,
    "cost" INTEGER,
    "durationMs" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RequestRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RequestRecord_orgId_createdAt_idx" ON "RequestRecord"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "RequestRecord_createdAt_idx" ON "RequestRecord"("createdAt");
