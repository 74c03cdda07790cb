global using Dashboard.Data.Entities;
global using Dashboard.Web.Storage;
