// Starts Swagger UI on /docs (a file, not an inline script: the pages' CSP allows no inline code).
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.SwaggerUIBundle({ url: root.getAttribute("data-openapi"), dom_id: "#swagger-ui" });
});
