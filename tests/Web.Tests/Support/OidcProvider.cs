using System.Collections.Immutable;
using System.Security.Claims;
using Microsoft.AspNetCore;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OpenIddict.Abstractions;
using OpenIddict.Server.AspNetCore;
using static OpenIddict.Abstractions.OpenIddictConstants;

namespace Dashboard.Web.Tests.Support;

/// <summary>
/// A real OpenID Connect provider for the single sign-on tests: OpenIddict's server (authorization code flow, PKCE
/// required, ephemeral keys, HTTP allowed) on Kestrel at a free loopback port, its clients in a SQLite file. Its
/// authorization endpoint signs in <see cref="NextUser"/> at once (no login form: the person is who the test says).
/// </summary>
public sealed class OidcProvider : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly string _database;

    private OidcProvider(WebApplication app, string database)
    {
        _app = app;
        _database = database;
    }

    /// <summary>The person the next authorization request signs in: subject, preferred user name and <c>roles</c> values.</summary>
    public (string Subject, string Name, string[] Roles) NextUser { get; set; } = ("s-1", "dana", []);

    /// <summary>The issuer address (<c>http://127.0.0.1:PORT/</c>): the dashboard's <c>Authority</c>.</summary>
    public Uri Issuer { get; private set; } = null!;

    /// <summary>How many authorization requests the provider has answered.</summary>
    public int Authorizations { get; private set; }

    /// <summary>Starts the provider with no clients (<see cref="RegisterClientAsync"/> adds one once the dashboard's address is known).</summary>
    public static async Task<OidcProvider> StartAsync()
    {
        var database = Path.Combine(Path.GetTempPath(), $"oidc-provider-{Guid.NewGuid():N}.db");
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        builder.Services.AddDbContext<DbContext>(o => o.UseSqlite($"Data Source={database}").UseOpenIddict());
        builder.Services.AddOpenIddict()
            .AddCore(o => o.UseEntityFrameworkCore().UseDbContext<DbContext>())
            .AddServer(o =>
            {
                o.SetAuthorizationEndpointUris("connect/authorize").SetTokenEndpointUris("connect/token");
                o.AllowAuthorizationCodeFlow().RequireProofKeyForCodeExchange();
                o.AddEphemeralEncryptionKey().AddEphemeralSigningKey().DisableAccessTokenEncryption();
                o.RegisterScopes(Scopes.OpenId, Scopes.Profile);
                o.UseAspNetCore().EnableAuthorizationEndpointPassthrough().DisableTransportSecurityRequirement();
            });
        var app = builder.Build();
        var provider = new OidcProvider(app, database);
        app.MapGet("/connect/authorize", provider.Authorize);
        await using (var scope = app.Services.CreateAsyncScope())
        {
            await scope.ServiceProvider.GetRequiredService<DbContext>().Database.EnsureCreatedAsync();
        }

        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();
        provider.Issuer = new Uri(address.TrimEnd('/') + "/");
        return provider;
    }

    /// <summary>Registers the confidential client <paramref name="clientId"/> with <paramref name="secret"/>, redirecting to <paramref name="redirectUri"/>.</summary>
    public async Task RegisterClientAsync(string clientId, string secret, Uri redirectUri)
    {
        await using var scope = _app.Services.CreateAsyncScope();
        var applications = scope.ServiceProvider.GetRequiredService<IOpenIddictApplicationManager>();
        await applications.CreateAsync(new OpenIddictApplicationDescriptor
        {
            ClientId = clientId,
            ClientSecret = secret,
            ClientType = ClientTypes.Confidential,
            RedirectUris = { redirectUri },
            Permissions =
            {
                Permissions.Endpoints.Authorization, Permissions.Endpoints.Token, Permissions.GrantTypes.AuthorizationCode,
                Permissions.ResponseTypes.Code, Permissions.Scopes.Profile,
            },
            Requirements = { Requirements.Features.ProofKeyForCodeExchange },
        });
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        File.Delete(_database);
    }

    private IResult Authorize(HttpContext http)
    {
        var request = http.GetOpenIddictServerRequest() ?? throw new InvalidOperationException("not an OpenID Connect request");
        Authorizations++;
        var (subject, name, roles) = NextUser;
        var identity = new ClaimsIdentity(OpenIddictServerAspNetCoreDefaults.AuthenticationScheme, Claims.Name, Claims.Role);
        identity.SetClaim(Claims.Subject, subject).SetClaim(Claims.PreferredUsername, name).SetClaims("roles", [.. roles]);
        identity.SetScopes(request.GetScopes());
        identity.SetDestinations(_ => [Destinations.AccessToken, Destinations.IdentityToken]);
        return Microsoft.AspNetCore.Http.Results.SignIn(new ClaimsPrincipal(identity), properties: null, OpenIddictServerAspNetCoreDefaults.AuthenticationScheme);
    }
}
