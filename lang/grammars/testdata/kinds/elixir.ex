defmodule Demo.Greeter do
  @moduledoc "Greets"
  use GenServer
  alias Demo.Repo
  def greet(%{name: name} = person, opts \\ []) when is_binary(name) do
    name
    |> String.upcase()
    |> then(&"hello #{&1}")
  end
  defp helper([h | t]), do: {h, t}
  def run do
    case Repo.get(1) do
      {:ok, v} -> v
      _ -> nil
    end
    Enum.map([1, 2, 3], fn x -> x * 2 end)
  end
end
