defmodule App.Server do
  use GenServer
  alias App.Repo
  import Ecto.Query
  @moduledoc "x"
  def start(x), do: x
  defp hidden(y), do: y
  defmacro m(a), do: a
  defstruct [:name]
end
