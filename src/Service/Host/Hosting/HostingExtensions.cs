using Dashboard.Service.Host.AspNet;
using Dashboard.Service.Host.Control;
using Dashboard.Service.Host.Jvm;
using Dashboard.Service.Host.Resources;
using Dashboard.Service.Host.Security;
using Dashboard.Service.Host.Settings;
using Dashboard.Service.Host.WcfBindings;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.Hosting;

/// <summary>One <c>AddXxx</c> per component of the service host (docs/architecture.md).</summary>
public static class HostingExtensions
{
    /// <summary>Binds and validates <see cref="ServiceHostOptions"/> and <see cref="JvmOptions"/> at start.</summary>
    public static IHostApplicationBuilder AddServiceHostOptions(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<ServiceHostOptions>().Bind(builder.Configuration.GetSection(ServiceHostOptions.Section)).ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<ServiceHostOptions>, ServiceHostOptionsValidator>();
        builder.Services.AddOptions<JvmOptions>().Bind(builder.Configuration.GetSection(JvmOptions.Section)).ValidateDataAnnotations().ValidateOnStart();
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(15));
        return builder;
    }

    /// <summary>With <c>ServiceHost:StopAtStdinEof</c>: the host stops when its standard input ends (its parent is gone).</summary>
    public static IHostApplicationBuilder AddParentWatch(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddHostedService<ParentWatchService>();
        return builder;
    }

    /// <summary>
    /// The security material and the control API's token (docs/security.md): made or reused when the host starts, before every other hosted service
    /// (call this before <c>AddResourceMonitor</c>, <c>AddAspNetStack</c> and <c>AddJvmStack</c>: hosted services are
    /// created and started in the order they were added).
    /// </summary>
    public static IHostApplicationBuilder AddSecurityMaterial(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddSingleton(sp => SecurityMaterial.LoadOrCreate(
            sp.GetRequiredService<IOptions<ServiceHostOptions>>().Value, sp.GetRequiredService<ILogger<SecurityMaterial>>()));
        builder.Services.AddHostedService<SecurityMaterialStartup>();
        builder.Services.AddSingleton(sp => ControlToken.LoadOrCreate(
            sp.GetRequiredService<IOptions<ServiceHostOptions>>().Value, sp.GetRequiredService<ILogger<ControlToken>>()));
        return builder;
    }

    /// <summary>The registry behind <c>GET /endpoints</c>.</summary>
    public static IHostApplicationBuilder AddEndpointRegistry(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddSingleton<EndpointRegistry>();
        builder.Services.AddSingleton<JvmProcessInfo>();
        return builder;
    }

    /// <summary>The background sampler behind <c>GET /resources</c> and the counter reader behind <c>GET /cpu</c>.</summary>
    public static IHostApplicationBuilder AddResourceMonitor(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddSingleton<CpuCounterReader>();
        builder.Services.AddSingleton<ResourceMonitor>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<ResourceMonitor>());
        return builder;
    }

    /// <summary>The aspnet variants, one Kestrel server each, in this process.</summary>
    public static IHostApplicationBuilder AddAspNetStack(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddHostedService<AspNetServers>();
        return builder;
    }

    /// <summary>
    /// The wcfbindings variants in this process: WCF bindings served by .NET with WCF's own message encoders; the
    /// dispatcher is ours; CoreWCF is not in this registry (net.tcp on a TCP listener of ours).
    /// </summary>
    public static IHostApplicationBuilder AddWcfBindingStack(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddHostedService<WcfBindingServers>();
        return builder;
    }

    /// <summary>The supervised JVM service process (metro and ice variants).</summary>
    public static IHostApplicationBuilder AddJvmStack(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.TryAddSingleton(TimeProvider.System); // the restart delays of the JVM supervisor
        builder.Services.AddHostedService<JvmSupervisor>();
        return builder;
    }
}
