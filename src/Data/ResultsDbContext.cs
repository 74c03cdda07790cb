using Dashboard.Data.Entities;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data;

/// <summary>
/// EF Core model of <c>results.db</c>: scenarios, runs, per-level aggregates, resource time series,
/// and the <c>Samples</c> table mapped for queries only (rows are written by
/// <see cref="Samples.SampleStore"/>). Migrations live in the <c>Dashboard.Migrations</c> assembly,
/// which must be deployed next to this one. Build options with <see cref="ResultsDatabase.CreateOptions"/>.
/// </summary>
public class ResultsDbContext(DbContextOptions<ResultsDbContext> options) : DbContext(options)
{
    /// <summary>Name of the assembly holding the migrations of this context.</summary>
    public const string MigrationsAssemblyName = "Dashboard.Migrations";

    /// <summary>
    /// Name of the trigger (created by the initial migration) that deletes a level's samples with the
    /// level. A migration that rebuilds the <c>Levels</c> table must create it again.
    /// </summary>
    public const string LevelsDeleteSamplesTrigger = "TR_Levels_DeleteSamples";

    /// <summary>Runs, queued to finished.</summary>
    public DbSet<RunEntity> Runs => Set<RunEntity>();

    /// <summary>Per-level aggregates of runs.</summary>
    public DbSet<LevelEntity> Levels => Set<LevelEntity>();

    /// <summary>Server resource time series of runs.</summary>
    public DbSet<ResourceSampleEntity> ResourceSamples => Set<ResourceSampleEntity>();

    /// <summary>Raw samples, read-only: saving added, changed or deleted rows throws.</summary>
    public DbSet<SampleEntity> Samples => Set<SampleEntity>();

    /// <inheritdoc />
    /// <exception cref="InvalidOperationException">A <see cref="SampleEntity"/> was added, changed or deleted.</exception>
    public override int SaveChanges(bool acceptAllChangesOnSuccess)
    {
        ThrowIfSamplesChanged();
        return base.SaveChanges(acceptAllChangesOnSuccess);
    }

    /// <inheritdoc />
    /// <exception cref="InvalidOperationException">A <see cref="SampleEntity"/> was added, changed or deleted.</exception>
    public override Task<int> SaveChangesAsync(bool acceptAllChangesOnSuccess, CancellationToken cancellationToken = default)
    {
        ThrowIfSamplesChanged();
        return base.SaveChangesAsync(acceptAllChangesOnSuccess, cancellationToken);
    }

    /// <inheritdoc />
    protected override void ConfigureConventions(ModelConfigurationBuilder configurationBuilder)
    {
        ArgumentNullException.ThrowIfNull(configurationBuilder);
        configurationBuilder.Properties<DateTime>().HaveConversion<UtcDateTimeConverter>();
    }

    /// <inheritdoc />
    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);

        modelBuilder.Entity<RunEntity>(e =>
        {
            e.ToTable("Runs");
            // A concurrency token: whoever saves a run it read while another process changed its status (a restarted
            // dashboard marking it Interrupted while an orphaned runner still writes) gets DbUpdateConcurrencyException.
            e.Property(r => r.Status).HasConversion<string>().IsConcurrencyToken();
        });

        modelBuilder.Entity<LevelEntity>(e =>
        {
            e.ToTable("Levels", t => t.HasTrigger(LevelsDeleteSamplesTrigger));
            e.HasOne(l => l.Run).WithMany(r => r.Levels).HasForeignKey(l => l.RunId).OnDelete(DeleteBehavior.Cascade);
            e.HasIndex(l => new { l.RunId, l.Variant, l.Client, l.Payload, l.Clients });
            e.Property(l => l.Bound).HasConversion<string>();
        });

        modelBuilder.Entity<ResourceSampleEntity>(e =>
        {
            e.ToTable("ResourceSamples");
            e.HasOne(s => s.Run).WithMany(r => r.ResourceSamples).HasForeignKey(s => s.RunId).OnDelete(DeleteBehavior.Cascade);
            e.HasIndex(s => new { s.RunId, s.OffsetMs });
        });

        // No foreign key and no secondary index: a level finds its rows by its rowid range
        // (Levels.FirstSampleId..LastSampleId), and a trigger created by the initial migration
        // deletes them with the level. Plain INTEGER PRIMARY KEY (no AUTOINCREMENT) keeps inserts cheap.
        modelBuilder.Entity<SampleEntity>(e =>
        {
            e.ToTable("Samples");
            e.Property(s => s.Id).ValueGeneratedNever();
        });
    }

    private void ThrowIfSamplesChanged()
    {
        if (ChangeTracker.Entries<SampleEntity>().Any(e => e.State is not (EntityState.Unchanged or EntityState.Detached)))
        {
            throw new InvalidOperationException(
                "Samples are read-only through EF Core; write them with SampleStore.");
        }
    }
}
