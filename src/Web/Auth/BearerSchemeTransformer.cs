using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace Dashboard.Web.Auth;

/// <summary>Declares the bearer scheme (an API token, <c>Authorization: Bearer dbt_…</c>) in the OpenAPI document, required by every operation.</summary>
internal sealed class BearerSchemeTransformer : IOpenApiDocumentTransformer
{
    /// <inheritdoc />
    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        document.Components ??= new OpenApiComponents();
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes[ApiTokenHandler.SchemeName] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.Http,
            Scheme = "bearer",
            Description = "An API token (Tokens page, or `Dashboard.Web token create --role Viewer|Operator|Admin`). Viewer reads, Operator also writes runs, Admin also agents and hosts.",
        };
        document.Security ??= [];
        document.Security.Add(new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(ApiTokenHandler.SchemeName, document)] = [] });
        return Task.CompletedTask;
    }
}
