from django.urls import path

app_name = "captain"
urlpatterns: list = []
