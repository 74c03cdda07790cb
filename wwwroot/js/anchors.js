// Links into a page's charts (the claims panel's verdicts: /runs/7?levels=all#chart-throughput): the run page renders
// its charts after loading its data, later than the browser looks for the address's #fragment, so the page asks for the
// scroll itself once the element is there (src/Web/Components/Pages/Run.razor.cs).
window.dashboardAnchors = {
    // Scrolls the element the address's fragment names into view; false when there is no fragment or no such element yet.
    scrollToHash: () => {
        const id = decodeURIComponent(location.hash.slice(1));
        const element = id ? document.getElementById(id) : null;
        if (!element) {
            return false;
        }
        element.scrollIntoView({ block: "start" });
        return true;
    },
    // True when the address has a fragment (nothing to wait for otherwise).
    hasHash: () => location.hash.length > 1,
};
