-- AlterTable: the same digest, its 32 hex digits stored as a uuid (16 bytes instead of 33), the unique index rebuilt with it
ALTER TABLE "Fact" ALTER COLUMN "factKey" SET DATA TYPE UUID USING "factKey"::uuid;
