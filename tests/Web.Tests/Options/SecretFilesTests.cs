using System.Net;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Options;
using Dashboard.Web.Tests.Support;
using Microsoft.Extensions.Configuration;
using YamlDotNet.RepresentationModel;

namespace Dashboard.Web.Tests.Options;

/// <summary><c>*_FILE</c> settings (src/Web/Options/SecretFiles.cs) and the docker-compose secrets that use them.</summary>
public sealed class SecretFilesTests
{
    [Fact]
    public void Read_SectionKeyFile_ValueFromTheFileWithoutItsLineBreak_MachineVariablesLeftAlone()
    {
        var file = Path.GetTempFileName();
        try
        {
            File.WriteAllText(file, "s3cret token\n");
            var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Dashboard:LocalHost:ControlToken_FILE"] = file,
                ["SSL_CERT_FILE"] = "/no/such/file",
            }).Build();

            var values = SecretFiles.Read(configuration);

            Assert.Equal("s3cret token", values["Dashboard:LocalHost:ControlToken"]);
            Assert.Single(values);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void Read_MissingFile_ThrowsNamingTheKeyAndThePath()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["ConnectionStrings:Results_FILE"] = "/run/secrets/no-such-secret",
        }).Build();

        var error = Assert.Throws<InvalidOperationException>(() => SecretFiles.Read(configuration));

        Assert.Contains("ConnectionStrings:Results_FILE", error.Message, StringComparison.Ordinal);
        Assert.Contains("/run/secrets/no-such-secret", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Dashboard_DatabaseFromAFileSetting_UsesTheFilesValue()
    {
        var root = WebApp.NewRoot();
        var secret = Path.Combine(root, "database-name");
        await File.WriteAllTextAsync(secret, "from-secret.db\n");
        var app = await WebApp.StartAsync(root, new Dictionary<string, string> { ["Dashboard__Database_FILE"] = secret });
        try
        {
            using var runs = await app.Http.GetAsync("/api/runs");

            Assert.Equal(HttpStatusCode.OK, runs.StatusCode);
            Assert.True(File.Exists(Path.Combine(app.DataFolder, "from-secret.db")), string.Join(", ", Directory.GetFiles(app.DataFolder)));
            Assert.False(File.Exists(app.DatabasePath));
        }
        finally
        {
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    [Fact]
    public void DockerCompose_Secrets_AreFilesAndNoServiceHasAPasswordOrTokenInItsEnvironment()
    {
        var yaml = new YamlStream();
        using (var reader = new StreamReader(Path.Combine(RepositoryPaths.Root, "docker-compose.yml")))
        {
            yaml.Load(reader);
        }

        var root = (YamlMappingNode)yaml.Documents[0].RootNode;
        var secrets = (YamlMappingNode)root["secrets"];
        foreach (var name in new[] { "host_token", "postgres_password", "results_connection" })
        {
            Assert.StartsWith("./secrets/", ((YamlScalarNode)((YamlMappingNode)secrets[name])["file"]).Value, StringComparison.Ordinal);
        }

        var services = (YamlMappingNode)root["services"];
        foreach (var (key, node) in services.Children)
        {
            var service = (YamlMappingNode)node;
            var granted = service.Children.ContainsKey("secrets") ? ((YamlSequenceNode)service["secrets"]).Select(s => ((YamlScalarNode)s).Value!).ToList() : [];
            Assert.All(granted, s => Assert.True(secrets.Children.ContainsKey(s), $"{key}: unknown secret {s}"));
            var environment = service.Children.ContainsKey("environment") ? (YamlMappingNode)service["environment"] : new YamlMappingNode();
            foreach (var (variable, value) in environment.Children)
            {
                var text = ((YamlScalarNode)value).Value ?? "";
                Assert.DoesNotContain("Password=", text, StringComparison.OrdinalIgnoreCase);
                Assert.False(((YamlScalarNode)variable).Value!.EndsWith("TOKEN", StringComparison.Ordinal), $"{key}: {variable} in the environment");
                if (((YamlScalarNode)variable).Value!.EndsWith("_FILE", StringComparison.Ordinal))
                {
                    Assert.True(text.StartsWith("/run/secrets/", StringComparison.Ordinal) && granted.Contains(text["/run/secrets/".Length..]),
                        $"{key}: {variable} names {text}, not one of its secrets ({string.Join(", ", granted)})");
                }
            }
        }

        var web = (YamlMappingNode)((YamlMappingNode)services["web"])["environment"];
        Assert.Equal("/run/secrets/host_token", ((YamlScalarNode)web["Dashboard__LocalHost__ControlToken_FILE"]).Value);
        Assert.Equal("/run/secrets/results_connection", ((YamlScalarNode)web["ConnectionStrings__Results_FILE"]).Value);
        Assert.Equal("/run/secrets/postgres_password", ((YamlScalarNode)((YamlMappingNode)((YamlMappingNode)services["postgres"])["environment"])["POSTGRES_PASSWORD_FILE"]).Value);
        foreach (var consumer in new[] { "host", "agent-1", "agent-2" })
        {
            var entrypoint = string.Join(' ', ((YamlSequenceNode)((YamlMappingNode)services[consumer])["entrypoint"]).Select(e => ((YamlScalarNode)e).Value));
            Assert.Contains("$$(cat /run/secrets/host_token)", entrypoint, StringComparison.Ordinal);
        }
    }
}
