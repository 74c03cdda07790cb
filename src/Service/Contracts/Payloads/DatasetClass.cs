namespace Dashboard.Service.Contracts.Payloads;

/// <summary>Which group a payload case belongs to, as its source document groups it.</summary>
public enum DatasetClass
{
    /// <summary>Thesis ch. 6.2.1: operations on simple types ("small datasets").</summary>
    Small,

    /// <summary>Thesis ch. 6.2.1: operations on arrays ("large datasets").</summary>
    Large,

    /// <summary>Whitepaper payloads (seed 001).</summary>
    Whitepaper,

    /// <summary>Book chapter payload (seed 004).</summary>
    Book,
}
