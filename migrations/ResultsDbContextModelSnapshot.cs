using Dashboard.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

namespace Dashboard.Migrations;

/// <summary>
/// The model as of the latest migration, written by hand; EF Core compares it with
/// <see cref="ResultsDbContext"/>'s model to find pending changes. Update it with every migration.
/// Provider-agnostic like the migrations: no store types (each provider derives them from the CLR types), and each
/// provider's own annotations (PostgreSQL's identity columns; SQLite ignores them).
/// </summary>
[DbContext(typeof(ResultsDbContext))]
public class ResultsDbContextModelSnapshot : ModelSnapshot
{
    private const string Level = "Dashboard.Data.Entities.LevelEntity";
    private const string ResourceSample = "Dashboard.Data.Entities.ResourceSampleEntity";
    private const string Run = "Dashboard.Data.Entities.RunEntity";
    private const string Sample = "Dashboard.Data.Entities.SampleEntity";
    private const string NpgsqlIdentity = Initial.NpgsqlIdentity;

    /// <inheritdoc />
    protected override void BuildModel(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);
        modelBuilder.HasAnnotation("ProductVersion", "10.0.14");

        modelBuilder.Entity(Level, b =>
        {
            b.Property<long>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<string>("Bound");
            b.Property<string>("Client").IsRequired();
            b.Property<int>("Clients");
            b.Property<bool>("Complete");
            b.Property<DateTime>("EndedUtc");
            b.Property<long>("AuthenticationErrors");
            b.Property<long>("ConnectionErrors");
            b.Property<long>("Errors");
            b.Property<long>("FaultErrors");
            b.Property<long?>("FirstSampleId");
            b.Property<double?>("GeneratorCoresBusyPercent");
            b.Property<double?>("GeneratorCpuMicrosPerRequest");
            b.Property<double?>("GeneratorCpuPercent");
            b.Property<long?>("LastSampleId");
            b.Property<double>("MaxMs");
            b.Property<double>("MeanMs");
            b.Property<double?>("MeanRequestBytes");
            b.Property<double?>("MeanResponseBytes");
            b.Property<long>("OtherErrors");
            b.Property<double>("P50Ms");
            b.Property<double>("P90Ms");
            b.Property<double?>("P95Ms");
            b.Property<double>("P999Ms");
            b.Property<double>("P99Ms");
            b.Property<string>("PartialReason");
            b.Property<string>("Payload").IsRequired();
            b.Property<int>("Repetition");
            b.Property<long>("Requests");
            b.Property<int>("RunId");
            b.Property<double?>("ServerCpuPercent");
            b.Property<DateTime>("StartedUtc");
            b.Property<double?>("SteadyStateCoefficientOfVariation");
            b.Property<bool?>("SteadyStateReached");
            b.Property<double?>("SteadyStateWarmupSeconds");
            b.Property<double>("ThroughputRps");
            b.Property<long>("TimeoutErrors");
            b.Property<string>("Variant").IsRequired();
            b.Property<long>("WrongReplyErrors");
            b.Property<long?>("WarmupRequests");
            b.Property<string>("TimeSeriesJson");
            b.Property<string>("AgentsJson");
            b.Property<double?>("StartSkewBoundMs");
            b.Property<double?>("CpuWindowSeconds");
            b.Property<double?>("ServerCpuMicrosPerRequest");
            b.Property<string>("ServerCpuMissingReason");
            b.Property<double?>("MachineBusyPercent");
            b.Property<double?>("StealPercent");
            b.Property<double?>("OthersCpuCores");
            b.Property<bool?>("Disturbed");
            b.Property<double?>("WindowSeconds");
            b.Property<int?>("Launch");
            b.Property<int?>("HostProcessId");
            b.Property<int?>("TargetRateRps");
            b.Property<long?>("LateStarts");
            b.Property<long?>("DroppedRequests");
            b.Property<int?>("Connections");
            b.Property<double?>("ServiceP99Ms");
            b.Property<int?>("SharedCore");
            b.HasKey("Id");
            b.HasIndex("RunId", "Variant", "Client", "Payload", "Clients");
            b.ToTable("Levels", t => t.HasTrigger("TR_Levels_DeleteSamples"));
        });

        modelBuilder.Entity(ResourceSample, b =>
        {
            b.Property<long>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<double>("AvailableMemoryMb");
            b.Property<double>("GcHeapMb");
            b.Property<double?>("GeneratorCpuPercent");
            b.Property<double?>("JvmCpuPercent");
            b.Property<double?>("JvmResidentMb");
            b.Property<double>("MachineCpuPercent");
            b.Property<long>("OffsetMs");
            b.Property<double>("ProcessCpuPercent");
            b.Property<int>("RunId");
            b.Property<int>("ThreadCount");
            b.Property<double>("WorkingSetMb");
            b.HasKey("Id");
            b.HasIndex("RunId", "OffsetMs");
            b.ToTable("ResourceSamples");
        });

        modelBuilder.Entity(Run, b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<int>("CompletedLevels");
            b.Property<DateTime>("CreatedUtc");
            b.Property<int?>("LinkRateMbps");
            b.Property<string>("Topology").IsRequired();
            b.Property<DateTime?>("EndedUtc");
            b.Property<string>("EnvironmentJson");
            b.Property<string>("Error");
            b.Property<string>("JobId");
            b.Property<string>("Name");
            b.Property<string>("Notes");
            b.Property<string>("ImportedJson");
            b.Property<double?>("EstimatedSeconds");
            b.Property<double?>("EstimatedLowSeconds");
            b.Property<double?>("EstimatedHighSeconds");
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

        modelBuilder.Entity(Sample, b =>
        {
            b.Property<long>("Id");
            b.Property<string>("Agent");
            b.Property<int>("ClientIndex");
            b.Property<bool>("IsWarmup");
            b.Property<long>("LatencyUs");
            b.Property<long>("LevelId");
            b.Property<byte>("Outcome");
            b.Property<int>("RequestBytes");
            b.Property<int>("ResponseBytes");
            b.Property<long>("StartOffsetUs");
            b.HasKey("Id");
            b.ToTable("Samples");
        });

        modelBuilder.Entity(Level, b =>
        {
            b.HasOne(Run, "Run").WithMany("Levels").HasForeignKey("RunId").OnDelete(DeleteBehavior.Cascade).IsRequired();
            b.Navigation("Run");
        });

        modelBuilder.Entity(ResourceSample, b =>
        {
            b.HasOne(Run, "Run").WithMany("ResourceSamples").HasForeignKey("RunId").OnDelete(DeleteBehavior.Cascade).IsRequired();
            b.Navigation("Run");
        });

        modelBuilder.Entity(Run, b =>
        {
            b.Navigation("Levels");
            b.Navigation("ResourceSamples");
        });
    }
}
