namespace Dashboard.Service.Host.Security;

/// <summary>
/// The first hosted service of the host: asking for <see cref="SecurityMaterial"/> makes (or reuses) the material, so it
/// exists before any other hosted service starts, the JVM supervisor among them (it hands the folder to the JVM service).
/// </summary>
internal sealed class SecurityMaterialStartup(SecurityMaterial material) : IHostedService
{
    /// <summary>The material, made when this service was created.</summary>
    public SecurityMaterial Material => material;

    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
