using Dashboard.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

namespace Dashboard.Migrations;

/// <summary>
/// Drops the saved-scenario table (<c>Scenarios</c>) and <c>Runs.ScenarioId</c>, its foreign key and index: nothing ever
/// wrote or read them (a run keeps its own snapshot of the document in <c>Runs.ScenarioJson</c>). Written by hand and
/// provider-agnostic, like <see cref="Initial"/>. SQLite cannot drop a column that a foreign key names, so EF Core
/// rebuilds <c>Runs</c> there (a new table, the rows copied, foreign keys off meanwhile), from the table as
/// <see cref="BuildTargetModel"/> describes it: the only migration that needs a target model.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261126000000_DropSavedScenarios")]
public class DropSavedScenarios : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropForeignKey(name: "FK_Runs_Scenarios_ScenarioId", table: "Runs");
        migrationBuilder.DropIndex(name: "IX_Runs_ScenarioId", table: "Runs");
        migrationBuilder.DropColumn(name: "ScenarioId", table: "Runs");
        migrationBuilder.DropTable(name: "Scenarios");
    }

    /// <summary>The <c>Runs</c> table after this migration (as <see cref="ResultsDbContextModelSnapshot"/> has it): what SQLite's rebuild creates.</summary>
    protected override void BuildTargetModel(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);
        modelBuilder.HasAnnotation("ProductVersion", "10.0.14");
        modelBuilder.Entity("Dashboard.Data.Entities.RunEntity", b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd()
                .HasAnnotation("Sqlite:Autoincrement", true)
                .HasAnnotation(Initial.NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<int>("CompletedLevels");
            b.Property<DateTime>("CreatedUtc");
            b.Property<int?>("LinkRateMbps");
            b.Property<string>("Topology").IsRequired().HasDefaultValue("same-machine");
            b.Property<DateTime?>("EndedUtc");
            b.Property<string>("EnvironmentJson");
            b.Property<string>("Error");
            b.Property<string>("JobId");
            b.Property<string>("Name");
            b.Property<string>("Notes");
            b.Property<int?>("OrderSeed");
            b.Property<string>("ProgressText");
            b.Property<string>("ScenarioJson").IsRequired();
            b.Property<string>("ScenarioName").IsRequired();
            b.Property<DateTime?>("ScheduledUtc");
            b.Property<DateTime?>("StartedUtc");
            b.Property<string>("Status").IsConcurrencyToken().IsRequired();
            b.Property<int>("TotalLevels");
            b.HasKey("Id");
            b.ToTable("Runs");
        });
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.CreateTable(
            name: "Scenarios",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(Initial.NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                Name = table.Column<string>(nullable: false),
                DocumentJson = table.Column<string>(nullable: false),
                CreatedUtc = table.Column<DateTime>(nullable: false),
                UpdatedUtc = table.Column<DateTime>(nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Scenarios", x => x.Id));
        migrationBuilder.AddColumn<int>(name: "ScenarioId", table: "Runs", nullable: true);
        migrationBuilder.CreateIndex(name: "IX_Runs_ScenarioId", table: "Runs", column: "ScenarioId");
        migrationBuilder.AddForeignKey(
            name: "FK_Runs_Scenarios_ScenarioId", table: "Runs", column: "ScenarioId",
            principalTable: "Scenarios", principalColumn: "Id", onDelete: ReferentialAction.SetNull);
    }
}
