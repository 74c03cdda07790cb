CREATE TABLE IF NOT EXISTS "__EFMigrationsHistory" (
    "MigrationId" TEXT NOT NULL CONSTRAINT "PK___EFMigrationsHistory" PRIMARY KEY,
    "ProductVersion" TEXT NOT NULL
);

BEGIN TRANSACTION;
CREATE TABLE "Scenarios" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Scenarios" PRIMARY KEY AUTOINCREMENT,
    "Name" TEXT NOT NULL,
    "DocumentJson" TEXT NOT NULL,
    "CreatedUtc" TEXT NOT NULL,
    "UpdatedUtc" TEXT NOT NULL
);

CREATE TABLE "Samples" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Samples" PRIMARY KEY,
    "LevelId" INTEGER NOT NULL,
    "ClientIndex" INTEGER NOT NULL,
    "StartOffsetUs" INTEGER NOT NULL,
    "LatencyUs" INTEGER NOT NULL,
    "Outcome" INTEGER NOT NULL,
    "IsWarmup" INTEGER NOT NULL
);

CREATE TABLE "Runs" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Runs" PRIMARY KEY AUTOINCREMENT,
    "ScenarioId" INTEGER NULL,
    "ScenarioName" TEXT NOT NULL,
    "ScenarioJson" TEXT NOT NULL,
    "Status" TEXT NOT NULL,
    "CreatedUtc" TEXT NOT NULL,
    "StartedUtc" TEXT NULL,
    "EndedUtc" TEXT NULL,
    "EnvironmentJson" TEXT NULL,
    "Error" TEXT NULL,
    "ProgressText" TEXT NULL,
    "CompletedLevels" INTEGER NOT NULL,
    "TotalLevels" INTEGER NOT NULL,
    CONSTRAINT "FK_Runs_Scenarios_ScenarioId" FOREIGN KEY ("ScenarioId") REFERENCES "Scenarios" ("Id") ON DELETE SET NULL
);

CREATE TABLE "Levels" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Levels" PRIMARY KEY AUTOINCREMENT,
    "RunId" INTEGER NOT NULL,
    "Variant" TEXT NOT NULL,
    "Client" TEXT NOT NULL,
    "Payload" TEXT NOT NULL,
    "Repetition" INTEGER NOT NULL,
    "Clients" INTEGER NOT NULL,
    "StartedUtc" TEXT NOT NULL,
    "EndedUtc" TEXT NOT NULL,
    "Requests" INTEGER NOT NULL,
    "Errors" INTEGER NOT NULL,
    "TimeoutErrors" INTEGER NOT NULL,
    "FaultErrors" INTEGER NOT NULL,
    "ConnectionErrors" INTEGER NOT NULL,
    "AuthenticationErrors" INTEGER NOT NULL,
    "OtherErrors" INTEGER NOT NULL,
    "ThroughputRps" REAL NOT NULL,
    "MeanMs" REAL NOT NULL,
    "P50Ms" REAL NOT NULL,
    "P90Ms" REAL NOT NULL,
    "P99Ms" REAL NOT NULL,
    "P999Ms" REAL NOT NULL,
    "MaxMs" REAL NOT NULL,
    "GeneratorCpuPercent" REAL NULL,
    "FirstSampleId" INTEGER NULL,
    "LastSampleId" INTEGER NULL,
    CONSTRAINT "FK_Levels_Runs_RunId" FOREIGN KEY ("RunId") REFERENCES "Runs" ("Id") ON DELETE CASCADE
);

CREATE TABLE "ResourceSamples" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_ResourceSamples" PRIMARY KEY AUTOINCREMENT,
    "RunId" INTEGER NOT NULL,
    "OffsetMs" INTEGER NOT NULL,
    "MachineCpuPercent" REAL NOT NULL,
    "AvailableMemoryMb" REAL NOT NULL,
    "ProcessCpuPercent" REAL NOT NULL,
    "WorkingSetMb" REAL NOT NULL,
    "GcHeapMb" REAL NOT NULL,
    "ThreadCount" INTEGER NOT NULL,
    "GeneratorCpuPercent" REAL NULL,
    CONSTRAINT "FK_ResourceSamples_Runs_RunId" FOREIGN KEY ("RunId") REFERENCES "Runs" ("Id") ON DELETE CASCADE
);

CREATE INDEX "IX_Runs_ScenarioId" ON "Runs" ("ScenarioId");

CREATE INDEX "IX_Levels_RunId_Variant_Client_Payload_Clients" ON "Levels" ("RunId", "Variant", "Client", "Payload", "Clients");

CREATE INDEX "IX_ResourceSamples_RunId_OffsetMs" ON "ResourceSamples" ("RunId", "OffsetMs");

CREATE TRIGGER "TR_Levels_DeleteSamples" AFTER DELETE ON "Levels"
BEGIN
    DELETE FROM "Samples"
    WHERE "Id" BETWEEN OLD."FirstSampleId" AND OLD."LastSampleId" AND "LevelId" = OLD."Id";
END;

INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion")
VALUES ('20261122000000_Initial', '10.0.14');

COMMIT;

BEGIN TRANSACTION;
ALTER TABLE "Samples" ADD "RequestBytes" INTEGER NOT NULL DEFAULT -1;

ALTER TABLE "Samples" ADD "ResponseBytes" INTEGER NOT NULL DEFAULT -1;

ALTER TABLE "Levels" ADD "WrongReplyErrors" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Levels" ADD "MeanRequestBytes" REAL NULL;

ALTER TABLE "Levels" ADD "MeanResponseBytes" REAL NULL;

ALTER TABLE "ResourceSamples" ADD "JvmCpuPercent" REAL NULL;

ALTER TABLE "ResourceSamples" ADD "JvmResidentMb" REAL NULL;

INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion")
VALUES ('20261122100000_WireBytes', '10.0.14');

COMMIT;

BEGIN TRANSACTION;
ALTER TABLE "Runs" ADD "Name" TEXT NULL;

ALTER TABLE "Runs" ADD "Notes" TEXT NULL;

ALTER TABLE "Runs" ADD "JobId" TEXT NULL;

ALTER TABLE "Runs" ADD "ScheduledUtc" TEXT NULL;

INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion")
VALUES ('20261125010000_RunNameNotesJob', '10.0.14');

COMMIT;

BEGIN TRANSACTION;
ALTER TABLE "Levels" ADD "Complete" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "Levels" ADD "PartialReason" TEXT NULL;

ALTER TABLE "Levels" ADD "SteadyStateReached" INTEGER NULL;

ALTER TABLE "Levels" ADD "SteadyStateWarmupSeconds" REAL NULL;

ALTER TABLE "Levels" ADD "SteadyStateCoefficientOfVariation" REAL NULL;

ALTER TABLE "Levels" ADD "ServerCpuPercent" REAL NULL;

ALTER TABLE "Levels" ADD "GeneratorCoresBusyPercent" REAL NULL;

ALTER TABLE "Levels" ADD "Bound" TEXT NULL;

ALTER TABLE "Levels" ADD "GeneratorCpuMicrosPerRequest" REAL NULL;

ALTER TABLE "Runs" ADD "OrderSeed" INTEGER NULL;

INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion")
VALUES ('20261125020000_Rigor', '10.0.14');

COMMIT;

BEGIN TRANSACTION;
ALTER TABLE "Runs" ADD "Topology" TEXT NOT NULL DEFAULT 'same-machine';

ALTER TABLE "Runs" ADD "LinkRateMbps" INTEGER NULL;

INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion")
VALUES ('20261125030000_RunTopology', '10.0.14');

COMMIT;

BEGIN TRANSACTION;
ALTER TABLE "Levels" ADD "WarmupRequests" INTEGER NULL;

ALTER TABLE "Levels" ADD "TimeSeriesJson" TEXT NULL;

INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion")
VALUES ('20261125100000_LevelSummaries', '10.0.14');

COMMIT;

