using System.Net;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Auth;

/// <summary>Sign-in on a real dashboard of its own (its rate limit is per address, and every test here is 127.0.0.1).</summary>
public sealed class SignInTests
{
    [Fact]
    public async Task SignIn_TenWrongPasswordsInARow_AreSlowedAndLogged()
    {
        var app = await WebApp.StartAsync();
        try
        {
            var (code, link, error) = await app.RunCommandAsync("admin", "create", "--user", "carol");
            Assert.True(code == 0, error);
            var setup = new Uri(link.Trim());
            using (var owner = new AccountClient(app))
            {
                using var set = await owner.PostFormAsync(setup.PathAndQuery, "/account/setup",
                    new() { ["token"] = setup.Query.Split("token=")[1], ["password"] = "a good long password", ["confirm"] = "a good long password" });
                Assert.Equal("/", set.Headers.Location!.OriginalString);
            }

            using var attacker = new AccountClient(app);
            var statuses = new List<HttpStatusCode>();
            for (var i = 0; i < 10; i++)
            {
                using var attempt = await attacker.PostFormAsync("/account/login", "/account/signin",
                    new() { ["userName"] = "carol", ["password"] = $"wrong password {i}" });
                statuses.Add(attempt.StatusCode);
            }

            Assert.Equal(HttpStatusCode.Redirect, statuses[0]);
            Assert.Contains(HttpStatusCode.TooManyRequests, statuses);
            Assert.Contains("Rate limit: refused POST /account/signin", app.Log, StringComparison.Ordinal);
            Assert.Contains("Sign-in failed for carol", app.Log, StringComparison.Ordinal);
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }
}
