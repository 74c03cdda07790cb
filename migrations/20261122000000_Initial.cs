using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// The first schema of <c>results.db</c>, written by hand to match <see cref="ResultsDbContext"/>;
/// <see cref="ResultsDbContextModelSnapshot"/> must describe the same model.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261122000000_Initial")]
public class Initial : Migration
{
    private static readonly string[] LevelIndexColumns = ["RunId", "Variant", "Client", "Payload", "Clients"];
    private static readonly string[] ResourceSampleIndexColumns = ["RunId", "OffsetMs"];

    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);

        migrationBuilder.CreateTable(
            name: "Scenarios",
            columns: table => new
            {
                Id = table.Column<int>(type: "INTEGER", nullable: false).Annotation("Sqlite:Autoincrement", true),
                Name = table.Column<string>(type: "TEXT", nullable: false),
                DocumentJson = table.Column<string>(type: "TEXT", nullable: false),
                CreatedUtc = table.Column<DateTime>(type: "TEXT", nullable: false),
                UpdatedUtc = table.Column<DateTime>(type: "TEXT", nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Scenarios", x => x.Id));

        // Narrow on purpose: Id is the rowid (no AUTOINCREMENT), no foreign key, no secondary index.
        migrationBuilder.CreateTable(
            name: "Samples",
            columns: table => new
            {
                Id = table.Column<long>(type: "INTEGER", nullable: false),
                LevelId = table.Column<long>(type: "INTEGER", nullable: false),
                ClientIndex = table.Column<int>(type: "INTEGER", nullable: false),
                StartOffsetUs = table.Column<long>(type: "INTEGER", nullable: false),
                LatencyUs = table.Column<long>(type: "INTEGER", nullable: false),
                Outcome = table.Column<byte>(type: "INTEGER", nullable: false),
                IsWarmup = table.Column<bool>(type: "INTEGER", nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Samples", x => x.Id));

        migrationBuilder.CreateTable(
            name: "Runs",
            columns: table => new
            {
                Id = table.Column<int>(type: "INTEGER", nullable: false).Annotation("Sqlite:Autoincrement", true),
                ScenarioId = table.Column<int>(type: "INTEGER", nullable: true),
                ScenarioName = table.Column<string>(type: "TEXT", nullable: false),
                ScenarioJson = table.Column<string>(type: "TEXT", nullable: false),
                Status = table.Column<string>(type: "TEXT", nullable: false),
                CreatedUtc = table.Column<DateTime>(type: "TEXT", nullable: false),
                StartedUtc = table.Column<DateTime>(type: "TEXT", nullable: true),
                EndedUtc = table.Column<DateTime>(type: "TEXT", nullable: true),
                EnvironmentJson = table.Column<string>(type: "TEXT", nullable: true),
                Error = table.Column<string>(type: "TEXT", nullable: true),
                ProgressText = table.Column<string>(type: "TEXT", nullable: true),
                CompletedLevels = table.Column<int>(type: "INTEGER", nullable: false),
                TotalLevels = table.Column<int>(type: "INTEGER", nullable: false),
            },
            constraints: table =>
            {
                table.PrimaryKey("PK_Runs", x => x.Id);
                table.ForeignKey(
                    name: "FK_Runs_Scenarios_ScenarioId",
                    column: x => x.ScenarioId,
                    principalTable: "Scenarios",
                    principalColumn: "Id",
                    onDelete: ReferentialAction.SetNull);
            });

        migrationBuilder.CreateTable(
            name: "Levels",
            columns: table => new
            {
                Id = table.Column<long>(type: "INTEGER", nullable: false).Annotation("Sqlite:Autoincrement", true),
                RunId = table.Column<int>(type: "INTEGER", nullable: false),
                Variant = table.Column<string>(type: "TEXT", nullable: false),
                Client = table.Column<string>(type: "TEXT", nullable: false),
                Payload = table.Column<string>(type: "TEXT", nullable: false),
                Repetition = table.Column<int>(type: "INTEGER", nullable: false),
                Clients = table.Column<int>(type: "INTEGER", nullable: false),
                StartedUtc = table.Column<DateTime>(type: "TEXT", nullable: false),
                EndedUtc = table.Column<DateTime>(type: "TEXT", nullable: false),
                Requests = table.Column<long>(type: "INTEGER", nullable: false),
                Errors = table.Column<long>(type: "INTEGER", nullable: false),
                TimeoutErrors = table.Column<long>(type: "INTEGER", nullable: false),
                FaultErrors = table.Column<long>(type: "INTEGER", nullable: false),
                ConnectionErrors = table.Column<long>(type: "INTEGER", nullable: false),
                AuthenticationErrors = table.Column<long>(type: "INTEGER", nullable: false),
                OtherErrors = table.Column<long>(type: "INTEGER", nullable: false),
                ThroughputRps = table.Column<double>(type: "REAL", nullable: false),
                MeanMs = table.Column<double>(type: "REAL", nullable: false),
                P50Ms = table.Column<double>(type: "REAL", nullable: false),
                P90Ms = table.Column<double>(type: "REAL", nullable: false),
                P99Ms = table.Column<double>(type: "REAL", nullable: false),
                P999Ms = table.Column<double>(type: "REAL", nullable: false),
                MaxMs = table.Column<double>(type: "REAL", nullable: false),
                GeneratorCpuPercent = table.Column<double>(type: "REAL", nullable: true),
                FirstSampleId = table.Column<long>(type: "INTEGER", nullable: true),
                LastSampleId = table.Column<long>(type: "INTEGER", nullable: true),
            },
            constraints: table =>
            {
                table.PrimaryKey("PK_Levels", x => x.Id);
                table.ForeignKey(
                    name: "FK_Levels_Runs_RunId",
                    column: x => x.RunId,
                    principalTable: "Runs",
                    principalColumn: "Id",
                    onDelete: ReferentialAction.Cascade);
            });

        migrationBuilder.CreateTable(
            name: "ResourceSamples",
            columns: table => new
            {
                Id = table.Column<long>(type: "INTEGER", nullable: false).Annotation("Sqlite:Autoincrement", true),
                RunId = table.Column<int>(type: "INTEGER", nullable: false),
                OffsetMs = table.Column<long>(type: "INTEGER", nullable: false),
                MachineCpuPercent = table.Column<double>(type: "REAL", nullable: false),
                AvailableMemoryMb = table.Column<double>(type: "REAL", nullable: false),
                ProcessCpuPercent = table.Column<double>(type: "REAL", nullable: false),
                WorkingSetMb = table.Column<double>(type: "REAL", nullable: false),
                GcHeapMb = table.Column<double>(type: "REAL", nullable: false),
                ThreadCount = table.Column<int>(type: "INTEGER", nullable: false),
                GeneratorCpuPercent = table.Column<double>(type: "REAL", nullable: true),
            },
            constraints: table =>
            {
                table.PrimaryKey("PK_ResourceSamples", x => x.Id);
                table.ForeignKey(
                    name: "FK_ResourceSamples_Runs_RunId",
                    column: x => x.RunId,
                    principalTable: "Runs",
                    principalColumn: "Id",
                    onDelete: ReferentialAction.Cascade);
            });

        migrationBuilder.CreateIndex(
            name: "IX_Runs_ScenarioId",
            table: "Runs",
            column: "ScenarioId");

        migrationBuilder.CreateIndex(
            name: "IX_Levels_RunId_Variant_Client_Payload_Clients",
            table: "Levels",
            columns: LevelIndexColumns);

        migrationBuilder.CreateIndex(
            name: "IX_ResourceSamples_RunId_OffsetMs",
            table: "ResourceSamples",
            columns: ResourceSampleIndexColumns);

        // A level's samples are the rows of its rowid range with its id (see SampleStore); they go
        // with the level, also when the level goes by the Runs -> Levels cascade.
        // The trigger is ResultsDbContext.LevelsDeleteSamplesTrigger.
        migrationBuilder.Sql("""
            CREATE TRIGGER "TR_Levels_DeleteSamples" AFTER DELETE ON "Levels"
            BEGIN
                DELETE FROM "Samples"
                WHERE "Id" BETWEEN OLD."FirstSampleId" AND OLD."LastSampleId" AND "LevelId" = OLD."Id";
            END;
            """);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);

        migrationBuilder.Sql("""DROP TRIGGER IF EXISTS "TR_Levels_DeleteSamples";""");
        migrationBuilder.DropTable(name: "Levels");
        migrationBuilder.DropTable(name: "ResourceSamples");
        migrationBuilder.DropTable(name: "Samples");
        migrationBuilder.DropTable(name: "Runs");
        migrationBuilder.DropTable(name: "Scenarios");
    }
}
