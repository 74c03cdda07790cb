using Dashboard.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace Dashboard.Migrations;

/// <summary>
/// The model as of the latest migration, written by hand; EF Core compares it with
/// <see cref="ResultsDbContext"/>'s model to find pending changes. Update it with every migration.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
public class ResultsDbContextModelSnapshot : ModelSnapshot
{
    private const string Level = "Dashboard.Data.Entities.LevelEntity";
    private const string ResourceSample = "Dashboard.Data.Entities.ResourceSampleEntity";
    private const string Run = "Dashboard.Data.Entities.RunEntity";
    private const string Sample = "Dashboard.Data.Entities.SampleEntity";
    private const string Scenario = "Dashboard.Data.Entities.ScenarioEntity";

    /// <inheritdoc />
    protected override void BuildModel(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);
        modelBuilder.HasAnnotation("ProductVersion", "10.0.14");

        modelBuilder.Entity(Level, b =>
        {
            b.Property<long>("Id").ValueGeneratedOnAdd().HasColumnType("INTEGER");
            b.Property<string>("Bound").HasColumnType("TEXT");
            b.Property<string>("Client").IsRequired().HasColumnType("TEXT");
            b.Property<int>("Clients").HasColumnType("INTEGER");
            b.Property<bool>("Complete").HasColumnType("INTEGER");
            b.Property<DateTime>("EndedUtc").HasColumnType("TEXT");
            b.Property<long>("AuthenticationErrors").HasColumnType("INTEGER");
            b.Property<long>("ConnectionErrors").HasColumnType("INTEGER");
            b.Property<long>("Errors").HasColumnType("INTEGER");
            b.Property<long>("FaultErrors").HasColumnType("INTEGER");
            b.Property<long?>("FirstSampleId").HasColumnType("INTEGER");
            b.Property<double?>("GeneratorCoresBusyPercent").HasColumnType("REAL");
            b.Property<double?>("GeneratorCpuMicrosPerRequest").HasColumnType("REAL");
            b.Property<double?>("GeneratorCpuPercent").HasColumnType("REAL");
            b.Property<long?>("LastSampleId").HasColumnType("INTEGER");
            b.Property<double>("MaxMs").HasColumnType("REAL");
            b.Property<double>("MeanMs").HasColumnType("REAL");
            b.Property<double?>("MeanRequestBytes").HasColumnType("REAL");
            b.Property<double?>("MeanResponseBytes").HasColumnType("REAL");
            b.Property<long>("OtherErrors").HasColumnType("INTEGER");
            b.Property<double>("P50Ms").HasColumnType("REAL");
            b.Property<double>("P90Ms").HasColumnType("REAL");
            b.Property<double>("P999Ms").HasColumnType("REAL");
            b.Property<double>("P99Ms").HasColumnType("REAL");
            b.Property<string>("PartialReason").HasColumnType("TEXT");
            b.Property<string>("Payload").IsRequired().HasColumnType("TEXT");
            b.Property<int>("Repetition").HasColumnType("INTEGER");
            b.Property<long>("Requests").HasColumnType("INTEGER");
            b.Property<int>("RunId").HasColumnType("INTEGER");
            b.Property<double?>("ServerCpuPercent").HasColumnType("REAL");
            b.Property<DateTime>("StartedUtc").HasColumnType("TEXT");
            b.Property<double?>("SteadyStateCoefficientOfVariation").HasColumnType("REAL");
            b.Property<bool?>("SteadyStateReached").HasColumnType("INTEGER");
            b.Property<double?>("SteadyStateWarmupSeconds").HasColumnType("REAL");
            b.Property<double>("ThroughputRps").HasColumnType("REAL");
            b.Property<long>("TimeoutErrors").HasColumnType("INTEGER");
            b.Property<string>("Variant").IsRequired().HasColumnType("TEXT");
            b.Property<long>("WrongReplyErrors").HasColumnType("INTEGER");
            b.Property<long?>("WarmupRequests").HasColumnType("INTEGER");
            b.Property<string>("TimeSeriesJson").HasColumnType("TEXT");
            b.HasKey("Id");
            b.HasIndex("RunId", "Variant", "Client", "Payload", "Clients");
            b.ToTable("Levels", t => t.HasTrigger("TR_Levels_DeleteSamples"));
        });

        modelBuilder.Entity(ResourceSample, b =>
        {
            b.Property<long>("Id").ValueGeneratedOnAdd().HasColumnType("INTEGER");
            b.Property<double>("AvailableMemoryMb").HasColumnType("REAL");
            b.Property<double>("GcHeapMb").HasColumnType("REAL");
            b.Property<double?>("GeneratorCpuPercent").HasColumnType("REAL");
            b.Property<double?>("JvmCpuPercent").HasColumnType("REAL");
            b.Property<double?>("JvmResidentMb").HasColumnType("REAL");
            b.Property<double>("MachineCpuPercent").HasColumnType("REAL");
            b.Property<long>("OffsetMs").HasColumnType("INTEGER");
            b.Property<double>("ProcessCpuPercent").HasColumnType("REAL");
            b.Property<int>("RunId").HasColumnType("INTEGER");
            b.Property<int>("ThreadCount").HasColumnType("INTEGER");
            b.Property<double>("WorkingSetMb").HasColumnType("REAL");
            b.HasKey("Id");
            b.HasIndex("RunId", "OffsetMs");
            b.ToTable("ResourceSamples");
        });

        modelBuilder.Entity(Run, b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasColumnType("INTEGER");
            b.Property<int>("CompletedLevels").HasColumnType("INTEGER");
            b.Property<DateTime>("CreatedUtc").HasColumnType("TEXT");
            b.Property<int?>("LinkRateMbps").HasColumnType("INTEGER");
            b.Property<string>("Topology").IsRequired().HasColumnType("TEXT");
            b.Property<DateTime?>("EndedUtc").HasColumnType("TEXT");
            b.Property<string>("EnvironmentJson").HasColumnType("TEXT");
            b.Property<string>("Error").HasColumnType("TEXT");
            b.Property<string>("JobId").HasColumnType("TEXT");
            b.Property<string>("Name").HasColumnType("TEXT");
            b.Property<string>("Notes").HasColumnType("TEXT");
            b.Property<int?>("OrderSeed").HasColumnType("INTEGER");
            b.Property<string>("ProgressText").HasColumnType("TEXT");
            b.Property<int?>("ScenarioId").HasColumnType("INTEGER");
            b.Property<string>("ScenarioJson").IsRequired().HasColumnType("TEXT");
            b.Property<string>("ScenarioName").IsRequired().HasColumnType("TEXT");
            b.Property<DateTime?>("ScheduledUtc").HasColumnType("TEXT");
            b.Property<DateTime?>("StartedUtc").HasColumnType("TEXT");
            b.Property<string>("Status").IsConcurrencyToken().IsRequired().HasColumnType("TEXT");
            b.Property<int>("TotalLevels").HasColumnType("INTEGER");
            b.HasKey("Id");
            b.HasIndex("ScenarioId");
            b.ToTable("Runs");
        });

        modelBuilder.Entity(Sample, b =>
        {
            b.Property<long>("Id").HasColumnType("INTEGER");
            b.Property<int>("ClientIndex").HasColumnType("INTEGER");
            b.Property<bool>("IsWarmup").HasColumnType("INTEGER");
            b.Property<long>("LatencyUs").HasColumnType("INTEGER");
            b.Property<long>("LevelId").HasColumnType("INTEGER");
            b.Property<byte>("Outcome").HasColumnType("INTEGER");
            b.Property<int>("RequestBytes").HasColumnType("INTEGER");
            b.Property<int>("ResponseBytes").HasColumnType("INTEGER");
            b.Property<long>("StartOffsetUs").HasColumnType("INTEGER");
            b.HasKey("Id");
            b.ToTable("Samples");
        });

        modelBuilder.Entity(Scenario, b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasColumnType("INTEGER");
            b.Property<DateTime>("CreatedUtc").HasColumnType("TEXT");
            b.Property<string>("DocumentJson").IsRequired().HasColumnType("TEXT");
            b.Property<string>("Name").IsRequired().HasColumnType("TEXT");
            b.Property<DateTime>("UpdatedUtc").HasColumnType("TEXT");
            b.HasKey("Id");
            b.ToTable("Scenarios");
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
            b.HasOne(Scenario, "Scenario").WithMany().HasForeignKey("ScenarioId").OnDelete(DeleteBehavior.SetNull);
            b.Navigation("Scenario");
        });

        modelBuilder.Entity(Run, b =>
        {
            b.Navigation("Levels");
            b.Navigation("ResourceSamples");
        });
    }
}
