-- CreateTable
CREATE TABLE "AnnouncedSignal" (
    "id" TEXT NOT NULL,
    "announcedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnouncedSignal_pkey" PRIMARY KEY ("id")
);

-- Backfill: the signals the event log shows announced
INSERT INTO "AnnouncedSignal" ("id", "announcedAt")
SELECT "payload"->>'id', min("createdAt") FROM "Event" WHERE "type" = 'signal.added' AND "payload"->>'id' IS NOT NULL GROUP BY 1;
