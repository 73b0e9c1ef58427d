-- CreateTable
CREATE TABLE "BillingAccount" (
    "orgId" TEXT NOT NULL,
    "customerId" TEXT,
    "balanceMillicents" BIGINT NOT NULL DEFAULT 0,
    "paygEnabled" BOOLEAN NOT NULL DEFAULT false,
    "hardCapCents" INTEGER,
    "softCapCents" INTEGER,
    "approvalThresholdCents" INTEGER,
    "period" TEXT NOT NULL DEFAULT '',
    "periodSpendMillicents" BIGINT NOT NULL DEFAULT 0,
    "softCapNotifiedPeriod" TEXT,
    "grantCallsUsed" INTEGER NOT NULL DEFAULT 0,
    "grantResetAt" TIMESTAMP(3),
    "autoTopupEnabled" BOOLEAN NOT NULL DEFAULT false,
    "autoTopupThresholdCents" INTEGER,
    "autoTopupAmountCents" INTEGER,
    "autoTopupInFlight" TEXT,
    "subscriptionId" TEXT,
    "subscriptionStatus" TEXT,
    "subscriptionEventAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BillingAccount_pkey" PRIMARY KEY ("orgId")
);

-- CreateTable
CREATE TABLE "CreditReservation" (
    "orgId" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "millicents" BIGINT NOT NULL DEFAULT 0,
    "grantCalls" INTEGER NOT NULL DEFAULT 0,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CreditReservation_pkey" PRIMARY KEY ("orgId","instanceId")
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "seq" BIGSERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "amountMillicents" BIGINT NOT NULL,
    "balanceAfterMillicents" BIGINT NOT NULL,
    "reference" TEXT,
    "description" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "RequestCharge" (
    "requestId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "meterClass" TEXT NOT NULL,
    "units" INTEGER NOT NULL,
    "millicents" BIGINT NOT NULL,
    "ledgerEntryId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RequestCharge_pkey" PRIMARY KEY ("requestId")
);

-- CreateTable
CREATE TABLE "TopUp" (
    "paymentIntentId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "bonusCents" INTEGER NOT NULL,
    "feeCents" INTEGER NOT NULL,
    "chargedCents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "auto" BOOLEAN NOT NULL DEFAULT false,
    "refundedCents" INTEGER NOT NULL DEFAULT 0,
    "failureCode" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "succeededAt" TIMESTAMP(3),

    CONSTRAINT "TopUp_pkey" PRIMARY KEY ("paymentIntentId")
);

-- CreateTable
CREATE TABLE "PaymentMethod" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "expMonth" INTEGER NOT NULL,
    "expYear" INTEGER NOT NULL,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,
    "fallbackPriority" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentMethod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProcessorEvent" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "handled" BOOLEAN NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessorEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "orgId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status" INTEGER,
    "body" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY ("orgId","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "BillingAccount_customerId_key" ON "BillingAccount"("customerId");

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_id_key" ON "LedgerEntry"("id");

-- CreateIndex
CREATE INDEX "LedgerEntry_orgId_seq_idx" ON "LedgerEntry"("orgId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_type_reference_key" ON "LedgerEntry"("type", "reference");

-- CreateIndex
CREATE INDEX "RequestCharge_orgId_createdAt_idx" ON "RequestCharge"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "TopUp_orgId_createdAt_idx" ON "TopUp"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentMethod_orgId_idx" ON "PaymentMethod"("orgId");

-- CreateIndex
CREATE INDEX "IdempotencyRecord_createdAt_idx" ON "IdempotencyRecord"("createdAt");

-- AddForeignKey
ALTER TABLE "BillingAccount" ADD CONSTRAINT "BillingAccount_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
