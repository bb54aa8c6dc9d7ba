app_name = "manage"
urlpatterns: list = []
