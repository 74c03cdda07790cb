using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

namespace Dashboard.Migrations;

/// <summary>
/// The first schema of the results database, written by hand to match <see cref="ResultsDbContext"/>;
/// <see cref="ResultsDbContextModelSnapshot"/> must describe the same model. Provider-agnostic (docs/architecture.md,
/// "Storage"): no column names a store type, so SQLite gets the types it always had (INTEGER, REAL, TEXT) and
/// PostgreSQL the ones of the CLR types (bigint, double precision, timestamp with time zone, boolean); only the
/// trigger that deletes a level's samples and, on PostgreSQL, the sequence of sample ids differ by provider.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261122000000_Initial")]
public class Initial : Migration
{
    private static readonly string[] LevelIndexColumns = ["RunId", "Variant", "Client", "Payload", "Clients"];
    private static readonly string[] ResourceSampleIndexColumns = ["RunId", "OffsetMs"];

    /// <summary>Npgsql's annotation for identity columns (SQLite ignores it, as PostgreSQL ignores <c>Sqlite:Autoincrement</c>).</summary>
    internal const string NpgsqlIdentity = "Npgsql:ValueGenerationStrategy";

    /// <summary>True when the migration runs on PostgreSQL (Npgsql's provider).</summary>
    internal static bool IsPostgreSql(MigrationBuilder migrationBuilder) =>
        migrationBuilder.ActiveProvider == "Npgsql.EntityFrameworkCore.PostgreSQL";

    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);

        migrationBuilder.CreateTable(
            name: "Scenarios",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                Name = table.Column<string>(nullable: false),
                DocumentJson = table.Column<string>(nullable: false),
                CreatedUtc = table.Column<DateTime>(nullable: false),
                UpdatedUtc = table.Column<DateTime>(nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Scenarios", x => x.Id));

        // Narrow on purpose: Id is the rowid (no AUTOINCREMENT), no foreign key, no secondary index.
        migrationBuilder.CreateTable(
            name: "Samples",
            columns: table => new
            {
                Id = table.Column<long>(nullable: false),
                LevelId = table.Column<long>(nullable: false),
                ClientIndex = table.Column<int>(nullable: false),
                StartOffsetUs = table.Column<long>(nullable: false),
                LatencyUs = table.Column<long>(nullable: false),
                Outcome = table.Column<byte>(nullable: false),
                IsWarmup = table.Column<bool>(nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Samples", x => x.Id));

        migrationBuilder.CreateTable(
            name: "Runs",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                ScenarioId = table.Column<int>(nullable: true),
                ScenarioName = table.Column<string>(nullable: false),
                ScenarioJson = table.Column<string>(nullable: false),
                Status = table.Column<string>(nullable: false),
                CreatedUtc = table.Column<DateTime>(nullable: false),
                StartedUtc = table.Column<DateTime>(nullable: true),
                EndedUtc = table.Column<DateTime>(nullable: true),
                EnvironmentJson = table.Column<string>(nullable: true),
                Error = table.Column<string>(nullable: true),
                ProgressText = table.Column<string>(nullable: true),
                CompletedLevels = table.Column<int>(nullable: false),
                TotalLevels = table.Column<int>(nullable: false),
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
                Id = table.Column<long>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                RunId = table.Column<int>(nullable: false),
                Variant = table.Column<string>(nullable: false),
                Client = table.Column<string>(nullable: false),
                Payload = table.Column<string>(nullable: false),
                Repetition = table.Column<int>(nullable: false),
                Clients = table.Column<int>(nullable: false),
                StartedUtc = table.Column<DateTime>(nullable: false),
                EndedUtc = table.Column<DateTime>(nullable: false),
                Requests = table.Column<long>(nullable: false),
                Errors = table.Column<long>(nullable: false),
                TimeoutErrors = table.Column<long>(nullable: false),
                FaultErrors = table.Column<long>(nullable: false),
                ConnectionErrors = table.Column<long>(nullable: false),
                AuthenticationErrors = table.Column<long>(nullable: false),
                OtherErrors = table.Column<long>(nullable: false),
                ThroughputRps = table.Column<double>(nullable: false),
                MeanMs = table.Column<double>(nullable: false),
                P50Ms = table.Column<double>(nullable: false),
                P90Ms = table.Column<double>(nullable: false),
                P99Ms = table.Column<double>(nullable: false),
                P999Ms = table.Column<double>(nullable: false),
                MaxMs = table.Column<double>(nullable: false),
                GeneratorCpuPercent = table.Column<double>(nullable: true),
                FirstSampleId = table.Column<long>(nullable: true),
                LastSampleId = table.Column<long>(nullable: true),
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
                Id = table.Column<long>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                RunId = table.Column<int>(nullable: false),
                OffsetMs = table.Column<long>(nullable: false),
                MachineCpuPercent = table.Column<double>(nullable: false),
                AvailableMemoryMb = table.Column<double>(nullable: false),
                ProcessCpuPercent = table.Column<double>(nullable: false),
                WorkingSetMb = table.Column<double>(nullable: false),
                GcHeapMb = table.Column<double>(nullable: false),
                ThreadCount = table.Column<int>(nullable: false),
                GeneratorCpuPercent = table.Column<double>(nullable: true),
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

        // A level's samples are the rows of its id range with its id (see SampleStore); they go
        // with the level, also when the level goes by the Runs -> Levels cascade.
        // The trigger is ResultsDbContext.LevelsDeleteSamplesTrigger.
        if (IsPostgreSql(migrationBuilder))
        {
            // Sample ids come from this sequence, a block per write (PostgreSqlSampleWriter): SQLite's rowids have no
            // equivalent. PostgreSQL triggers call a function, here of the trigger's name.
            migrationBuilder.Sql("""CREATE SEQUENCE "Samples_Id_seq" AS bigint OWNED BY "Samples"."Id";""");
            migrationBuilder.Sql("""
                CREATE FUNCTION "TR_Levels_DeleteSamples"() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    DELETE FROM "Samples"
                    WHERE "Id" BETWEEN OLD."FirstSampleId" AND OLD."LastSampleId" AND "LevelId" = OLD."Id";
                    RETURN OLD;
                END;
                $$;
                """);
            migrationBuilder.Sql("""
                CREATE TRIGGER "TR_Levels_DeleteSamples" AFTER DELETE ON "Levels"
                FOR EACH ROW EXECUTE FUNCTION "TR_Levels_DeleteSamples"();
                """);
            return;
        }

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

        migrationBuilder.Sql(IsPostgreSql(migrationBuilder)
            ? """DROP TRIGGER IF EXISTS "TR_Levels_DeleteSamples" ON "Levels"; DROP FUNCTION IF EXISTS "TR_Levels_DeleteSamples"();"""
            : """DROP TRIGGER IF EXISTS "TR_Levels_DeleteSamples";""");
        migrationBuilder.DropTable(name: "Levels");
        migrationBuilder.DropTable(name: "ResourceSamples");
        migrationBuilder.DropTable(name: "Samples");
        migrationBuilder.DropTable(name: "Runs");
        migrationBuilder.DropTable(name: "Scenarios");
    }
}
