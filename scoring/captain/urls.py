app_name = "captain"
urlpatterns: list = []
