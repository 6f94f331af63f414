// Swagger UI over this server's /openapi.json (the spec the server validates requests with).
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
  validatorUrl: null,
});
