-- CreateTable
CREATE TABLE "Monitor" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "params" JSONB NOT NULL,
    "threshold" JSONB,
    "records" TEXT NOT NULL,
    "ciks" TEXT[],
    "scope" TEXT,
    "form" TEXT,
    "deliveryType" TEXT,
    "webhookEndpointId" TEXT,
    "emailAddress" TEXT,
    "emailOptedOutAt" TIMESTAMP(3),
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "deactivatedAt" TIMESTAMP(3),
    "startTxid" BIGINT NOT NULL,
    "startSeq" BIGINT NOT NULL,
    "checkedTxid" BIGINT NOT NULL,
    "checkedSeq" BIGINT NOT NULL,
    "lastCheckedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Monitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MonitorEmail" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "monitorId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "headers" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "error" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MonitorEmail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Monitor_orgId_createdAt_idx" ON "Monitor"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "Monitor_ciks_idx" ON "Monitor" USING GIN ("ciks");

-- CreateIndex
CREATE INDEX "Monitor_records_scope_idx" ON "Monitor"("records", "scope");

-- CreateIndex
CREATE INDEX "MonitorEmail_status_nextAttemptAt_idx" ON "MonitorEmail"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "MonitorEmail_monitorId_eventId_key" ON "MonitorEmail"("monitorId", "eventId");

-- CreateIndex
CREATE INDEX "Event_type_txid_seq_idx" ON "Event"("type", "txid", "seq");

-- AddForeignKey
ALTER TABLE "Monitor" ADD CONSTRAINT "Monitor_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MonitorEmail" ADD CONSTRAINT "MonitorEmail_monitorId_fkey" FOREIGN KEY ("monitorId") REFERENCES "Monitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
